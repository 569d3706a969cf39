// The reference docs as a reader sees them: `npm run docs` builds them (into a temporary directory)
// from the list in scripts/docs-documents.ts, Debian's Chromium opens every page, and
// - no page loads anything from the network: every request other than the page itself is recorded
//   and refused (page.route), and so is every fetch, beacon, XHR, WebSocket and EventSource the
//   page's scripts start; the same check catches what Redocly's default output loads;
// - each operation and webhook is there, badged "Assumed" exactly when the contract marks it
//   `x-assumed`, and every badge anywhere (titles, sidebar, fields, parameters, headers, response
//   descriptions, the hand-made pages) has the one look of scripts/docs-badge.ts;
// - each contract page opens with its overviews; claims show as objects of their schemas;
// - the "Confirmed vs assumed" page lists exactly the reviewed assumed elements
//   (test/contract/assumed-*.ts);
// - a development tool's document (the mock's control API) is one more entry of the list: its page
//   says it is not part of the service contracts and carries no badge.
// Screenshots go to test-results/docs/; UPDATE_DOCS_SCREENSHOT=1 refreshes the guide's copy (docs/guides/contract.md)
// (assets/docs-screenshot.png).
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { operationRoute } from "../../scripts/docs-assumed.js";
import { ASSUMED_BADGE_SELECTOR, ASSUMED_LABEL } from "../../scripts/docs-badge.js";
import { buildDocs } from "../../scripts/docs-build.js";
import { DOCS_DOCUMENTS, type DocsDocument } from "../../scripts/docs-documents.js";
import { finishRedocPage } from "../../scripts/docs-redoc-page.js";
import { assumedDashboard } from "../contract/assumed-dashboard.js";
import { assumedRebuild } from "../contract/assumed-rebuild.js";
import { launchChromium } from "../support/chromium.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const SCREENSHOTS = join(root, "test-results", "docs");
const WAIT = { timeout: 15_000 };
const METHODS = ["get", "put", "post", "delete", "patch"] as const;
const execFileAsync = promisify(execFile);
/** What `npm run docs` printed. */
let built: { stdout: string; stderr: string };

/** The reviewed list of each contract's assumed elements. */
const REVIEWED: Record<string, readonly string[]> = { dashboard: assumedDashboard, rebuild: assumedRebuild };
/** The overview sections each contract page opens with (its `info.description` headings). */
const OVERVIEWS: Record<string, readonly string[]> = {
  dashboard: ["Authentication", "Claims", "Pagination", "Errors"],
  rebuild: ["Authentication", "Rate limits", "Errors"],
};

type Node = Record<string, unknown>;
interface Operation {
  /** `POST /si/servers` or `webhook partner_project_rebuild_completed`. */
  name: string;
  route: string;
  summary: string;
  assumed: boolean;
  webhook: boolean;
}

function load(entry: DocsDocument): Node {
  return parse(readFileSync(join(root, entry.source), "utf8")) as Node;
}

/** Every operation and webhook of a document, as the docs should show it. */
function operationsOf(entry: DocsDocument): Operation[] {
  const document = load(entry);
  const found: Operation[] = [];
  for (const [key, webhook] of [
    ["paths", false],
    ["webhooks", true],
  ] as const) {
    for (const [path, item] of Object.entries((document[key] ?? {}) as Record<string, Node>)) {
      for (const method of METHODS) {
        const operation = item[method] as Node | undefined;
        if (!operation) continue;
        found.push({
          name: webhook ? `webhook ${path}` : `${method.toUpperCase()} ${path}`,
          route: operationRoute(operation),
          summary: String(operation.summary),
          assumed: operation["x-assumed"] === true,
          webhook,
        });
      }
    }
  }
  return found;
}

/** Lower-cased names of every response header a document declares: badges in them are "header" badges. */
function headerNames(entry: DocsDocument): Set<string> {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (typeof node !== "object" || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "headers" && typeof value === "object" && value !== null) {
        for (const name of Object.keys(value)) names.add(name.toLowerCase());
      }
      visit(value);
    }
  };
  visit(load(entry));
  return names;
}

let out: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Script errors of the pages opened so far; each test checks there are none. */
const pageErrors: string[] = [];
/** Every request that was not the page being opened: refused, and a failure of the test that made it. */
const offPage: string[] = [];
/** The page being opened (without its hash): the one request a test may make. */
let opening = "";

// Runs in every page before its own scripts: records every network call a script starts (the
// route below refuses them; this list does not depend on when the browser gets to them).
function recordScriptRequests(): void {
  const calls: string[] = [];
  Object.defineProperty(window, "__networkCalls", { value: calls });
  const record = (kind: string, target: unknown): void => {
    const url = new URL(target instanceof Request ? target.url : String(target), location.href);
    if (url.protocol !== "data:" && url.protocol !== "blob:") calls.push(`${kind} ${url.href}`);
  };
  const originalFetch = window.fetch;
  window.fetch = (input, init) => {
    record("fetch", input);
    return originalFetch(input, init);
  };
  const beacon = navigator.sendBeacon.bind(navigator);
  navigator.sendBeacon = (url, data) => {
    record("sendBeacon", url);
    return beacon(url, data);
  };
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (this: XMLHttpRequest, ...args: Parameters<typeof open>) {
    record("XMLHttpRequest", args[1]);
    return open.apply(this, args);
  } as typeof open;
  const OriginalWebSocket = window.WebSocket;
  window.WebSocket = class extends OriginalWebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      record("WebSocket", url);
      super(url, protocols);
    }
  };
  const OriginalEventSource = window.EventSource;
  window.EventSource = class extends OriginalEventSource {
    constructor(url: string | URL, init?: EventSourceInit) {
      record("EventSource", url);
      super(url, init);
    }
  };
}

async function newPage(): Promise<Page> {
  const created = await context.newPage();
  created.on("pageerror", (error) => pageErrors.push(error.message));
  return created;
}

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), "docs-test-"));
  built = await execFileAsync("npm", ["run", "--silent", "docs", "--", out], { cwd: root, timeout: 180_000 });
  mkdirSync(SCREENSHOTS, { recursive: true });
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript(recordScriptRequests);
  await context.route("**/*", async (route) => {
    const url = route.request().url();
    if (url === opening) return route.continue();
    offPage.push(`${route.request().resourceType()} ${url}`);
    return route.abort("blockedbyclient");
  });
  page = await newPage();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

function fileUrl(file: string): string {
  return pathToFileURL(join(out, file)).href;
}

async function open(file: string, hash = "", on: Page = page): Promise<void> {
  opening = fileUrl(file);
  await on.goto(`${opening}${hash}`);
  expect(pageErrors).toEqual([]);
}

/**
 * What a page fetched or referenced from the network after a reader went through it: scrolled to
 * the end (Redoc renders lazily), searched, and left it (hidden pages flush batched telemetry at once).
 */
async function networkUse(on: Page): Promise<string[]> {
  await on.locator("body").waitFor(WAIT);
  await on.evaluate(async () => {
    for (let y = 0; y <= document.body.scrollHeight; y += 600) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
  });
  await on.keyboard.press("Control+K");
  await on.keyboard.type("token");
  await on.keyboard.press("Escape");
  await on.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
    window.dispatchEvent(new Event("pagehide"));
  });
  // Resources the page's markup and styles point at, whether or not the browser fetched them yet.
  const referenced = await on.evaluate(() => {
    const remote = /^(https?:)?\/\//i;
    const found: string[] = [];
    for (const element of document.querySelectorAll("*")) {
      for (const attribute of ["src", "srcset", "poster", "data"]) {
        const value = element.getAttribute(attribute);
        if (value && remote.test(value.trim())) found.push(`${element.tagName} ${attribute}=${value}`);
      }
      if (element.tagName === "LINK" && remote.test(element.getAttribute("href") ?? "")) {
        found.push(`LINK rel=${element.getAttribute("rel")} href=${element.getAttribute("href")}`);
      }
      const style = getComputedStyle(element);
      for (const image of [style.backgroundImage, style.maskImage, style.listStyleImage]) {
        if (/url\("?(https?:)?\/\//i.test(image)) found.push(`${element.tagName} style ${image}`);
      }
    }
    return found;
  });
  const calls = await on.evaluate(() => (window as unknown as { __networkCalls: string[] }).__networkCalls);
  return [...offPage.splice(0), ...calls, ...referenced];
}

const pages = [...DOCS_DOCUMENTS.map((d) => `${d.name}.html`), "index.html", "assumptions.html"];

// The SDK's API reference (scripts/docs-sdk.ts): TypeDoc over every entry point, where a warning (an
// export without documentation, a type a public signature names that is not in the reference) fails
// `npm run docs`.
describe("the SDK reference (TypeDoc) in sdk/", () => {
  it("is built with no warning", () => {
    expect(built.stdout).toContain(`docs: the SDK reference in ${join(out, "sdk")}`);
    expect(`${built.stdout}${built.stderr}`).not.toMatch(/warning/i);
    expect(readFileSync(join(out, "sdk", "index.html"), "utf8")).toContain("rebuild-dashboard-kit");
  });

  it.each([
    // Each entry point is a module named as it is imported (`@module` in its file).
    ["classes/rebuild-dashboard-kit.DashboardClient.html", "DashboardClient"],
    ["interfaces/rebuild-dashboard-kit.ServersResource.html", "listAll"],
    [
      "functions/rebuild-dashboard-kit_webhooks.createRebuildWebhookHandler.html",
      "createRebuildWebhookHandler",
    ],
    ["classes/rebuild-dashboard-kit_mocks_control.MockControlClient.html", "MockControlClient"],
    ["functions/rebuild-dashboard-kit_mocks_node.startMockServer.html", "startMockServer"],
  ])("has the page %s, about %s", (file, name) => {
    expect(readFileSync(join(out, "sdk", file), "utf8")).toContain(name);
  });
});

describe("the reference docs in Chromium", () => {
  it("the index links every page of the document list and the assumptions page", async () => {
    await open("index.html");
    const links = await page
      .locator("a")
      .evaluateAll((anchors) => anchors.map((a) => a.getAttribute("href")));
    expect(links).toEqual([...DOCS_DOCUMENTS.map((d) => `${d.name}.html`), "assumptions.html"]);
    await page.screenshot({ path: join(SCREENSHOTS, "index.png"), fullPage: true });
  });

  describe("load nothing from the network", () => {
    it.each(pages)("%s", async (file) => {
      await open(file);
      expect(await networkUse(page)).toEqual([]);
    });

    it("(the check catches what Redocly's default output loads: its logo and its telemetry)", async () => {
      // The same document built by Redocly CLI outside this repository (so without redocly.yaml) and
      // with its telemetry setting on, the CLI's default.
      const raw = join(out, "raw-rebuild.html");
      const redocly = join(root, "node_modules", "@redocly", "cli", "bin", "cli.js");
      await execFileAsync(
        process.execPath,
        [redocly, "build-docs", join(root, "openapi", "rebuild.yaml"), "--output", raw, "--inlineBundle"],
        { cwd: out, timeout: 120_000, env: { ...process.env, REDOCLY_TELEMETRY: "on" } },
      );
      expect(() => finishRedocPage(readFileSync(raw, "utf8"), "raw-rebuild.html")).toThrow(/telemetry/);
      const rawPage = await newPage();
      try {
        await open("raw-rebuild.html", "", rawPage);
        let seen: string[] = [];
        await expect
          .poll(
            async () => {
              seen = [...seen, ...(await networkUse(rawPage))];
              return seen.join("\n");
            },
            { timeout: 20_000, interval: 500 },
          )
          .toContain("https://otel.cloud.redocly.com/");
        expect(seen.join("\n")).toContain("https://cdn.redoc.ly/redoc/logo-mini-full.svg");
      } finally {
        await rawPage.close();
        offPage.splice(0);
      }
    }, 90_000);
  });

  describe.each(DOCS_DOCUMENTS.map((d) => [`${d.name}.html`, d] as const))("%s", (_page, entry) => {
    const headers = headerNames(entry);

    it.each(operationsOf(entry))("shows $name, badged Assumed exactly when assumed", async (operation) => {
      await open(`${entry.name}.html`, operation.route);
      const section = page.locator(`[data-section-id="${operation.route.slice(1)}"]`);
      const title = section.locator("h2").first();
      // Redoc may attach the heading before it fills it in (seen on a loaded machine): wait for its text.
      await expect.poll(() => title.innerText(), { ...WAIT, interval: 200 }).toContain(operation.summary);
      const tags = await title.locator('[data-component-name="Tag/Tag"]').allInnerTexts();
      expect(tags.includes(ASSUMED_LABEL), `the title's tags: ${tags.join(", ")}`).toBe(operation.assumed);
      expect(tags.includes("Webhook")).toBe(operation.webhook);
      // The first paragraph of an assumed operation's description says why, after the badge.
      const first = section.locator('[data-component-name="Markdown/Markdown"]').first();
      expect(await first.locator(".assumed-badge").count()).toBe(operation.assumed ? 1 : 0);
      // No property of any schema shows as an array of unknown items (claims did, decisions/027).
      const types = await section.locator(".schema-property-item em").allInnerTexts();
      expect(types.filter((type) => /of any\b/.test(type))).toEqual([]);
      const shot = `${entry.name}-${operation.route.split("/").at(-1)}.png`;
      await page.screenshot({ path: join(SCREENSHOTS, shot) });
      if (
        process.env.UPDATE_DOCS_SCREENSHOT === "1" &&
        operation.route === "#/server-inventory/connectservers"
      ) {
        copyFileSync(join(SCREENSHOTS, shot), join(root, "assets", "docs-screenshot.png"));
      }
    });

    it("every badge on every operation has the one look, wherever it is", async () => {
      const reference = await badgeLooks("index.html");
      expect(new Set(reference.map((b) => b.look)).size).toBe(1);
      const look = reference[0]?.look;
      const places = new Set<string>();
      for (const operation of operationsOf(entry)) {
        await open(`${entry.name}.html`, operation.route);
        await page
          .locator(`[data-section-id="${operation.route.slice(1)}"] h2`)
          .first()
          .waitFor(WAIT);
        // Every response's description and headers: open each response tab of the operation. A tab
        // shows its response inside the operation's section, so only that section is read again;
        // the whole page is read once the tabs are done.
        const section = `[data-section-id="${operation.route.slice(1)}"]`;
        const tabs = page.locator(`${section} [data-response-codes-tablist] [role="tab"]`);
        for (let i = 0; i < (await tabs.count()); i++) {
          await tabs.nth(i).click();
          for (const badge of await badgeLooks(null, headers, section)) {
            expect(badge.look, `${operation.name}: a badge in ${badge.place}`).toBe(look);
            places.add(badge.place);
          }
        }
        for (const badge of await badgeLooks(null, headers)) {
          expect(badge.look, `${operation.name}: a badge in ${badge.place}`).toBe(look);
          places.add(badge.place);
        }
      }
      if (entry.kind === "development tool") {
        // Nothing in a development tool's document is an assumption about a provider.
        expect([...places]).toEqual([]);
      } else {
        const expected = ["operation title", "sidebar", "field or parameter", "description"];
        if (entry.name === "rebuild") expected.push("response header");
        expect([...places]).toEqual(expect.arrayContaining(expected));
      }
      for (const badge of await badgeLooks("assumptions.html"))
        expect(badge.look, "assumptions.html").toBe(look);
    }, 90_000);

    if (entry.kind === "contract") {
      it("opens with its overviews", async () => {
        const expected = OVERVIEWS[entry.name];
        expect(expected, `the overviews of ${entry.name}.html`).toBeDefined();
        await open(`${entry.name}.html`);
        const sidebar = await page.locator('[data-component-name="Menu/MenuItem"]').allInnerTexts();
        for (const title of expected ?? []) {
          const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
          const section = page.locator(`[data-section-id="/section/${slug}"]`);
          await expect.poll(() => section.locator("h2").first().innerText(), { timeout: 5_000 }).toBe(title);
          expect((await section.innerText()).length, `${title} has text`).toBeGreaterThan(200);
          expect(sidebar).toContain(title);
        }
      });
    }
  });

  it("claims show as objects of their schemas, not as arrays of anything", async () => {
    for (const [route, property, schema] of [
      ["#/api-tokens/createapitoken", "t=request&path=claims", "(ClaimInput)"],
      ["#/api-tokens/getapitoken", "t=response&c=200&path=data/claims", "(Claim)"],
    ] as const) {
      await open("dashboard.html", route);
      const item = page.locator(`[id="${route.slice(2)}/${property}"]`);
      await item.waitFor(WAIT);
      const types = await item.locator(":scope > div").first().locator("em").allInnerTexts();
      expect(types).toEqual(["Array of objects", schema]);
      // A request's claims also say "each name at most once" (`if`/`then`, decisions/041), which Redoc
      // shows as two cases above the items, folded: unfold them.
      const folded = item.getByText(/^Show \d+ array properties$/);
      if ((await folded.count()) > 0) await folded.first().click();
      // Each claim is one of the two claim schemas, chosen by `name`, with its own fields.
      for (const name of ["mcp", "manage-api-tokens"]) {
        await item.getByRole("tab", { name, exact: true }).click();
        const fields = await item.locator(".schema-name").allInnerTexts();
        expect(fields).toEqual(
          expect.arrayContaining(name === "mcp" ? ["name", "readonly", "attributes"] : ["name", "readonly"]),
        );
      }
    }
  });

  it("the assumptions page lists exactly the reviewed assumed elements of each contract", async () => {
    await open("assumptions.html");
    const listed = async (id: string) => page.locator(`h2#${id} + table td.pointer code`).allInnerTexts();
    for (const entry of DOCS_DOCUMENTS.filter((d) => d.kind === "contract")) {
      const reviewed = REVIEWED[entry.name];
      expect(reviewed, `the reviewed list of ${entry.name}`).toBeDefined();
      expect((await listed(entry.name)).sort()).toEqual([...(reviewed ?? [])].sort());
    }
    await page.screenshot({ path: join(SCREENSHOTS, "assumptions.png") });
  });
});

interface BadgeLook {
  look: string;
  place: string;
}

/**
 * Every badge on a page (the current one when `file` is null), or in the part of it `within` selects:
 * its computed look and where it is.
 */
async function badgeLooks(
  file: string | null,
  headers: ReadonlySet<string> = new Set(),
  within = "body",
): Promise<BadgeLook[]> {
  if (file) await open(file);
  const found = await page.evaluate(
    ({ selector, label, headerList, scope }) => {
      const root = document.querySelector<HTMLElement>(scope);
      if (!root) throw new Error(`nothing on the page matches ${scope}`);
      const badges = [...root.querySelectorAll<HTMLElement>(selector)];
      // A word "Assumed" outside a badge would be a badge in another style.
      const loose: string[] = [];
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        if (text.textContent?.trim() === label && !text.parentElement?.closest(selector)) {
          loose.push(text.parentElement?.outerHTML ?? "");
        }
      }
      const looks = badges.map((badge) => {
        const style = getComputedStyle(badge);
        const before = getComputedStyle(badge, "::before").content;
        const look = [
          style.backgroundColor,
          style.color,
          style.borderTopStyle,
          style.borderTopWidth,
          style.borderTopColor,
          style.borderRadius,
          style.fontSize,
          style.fontWeight,
          style.lineHeight,
          style.paddingLeft,
          style.paddingRight,
          before,
          badge.textContent,
        ].join(" | ");
        const property = badge.closest(".schema-property-item");
        const path = /path=([^&]*)$/.exec(property?.id ?? "")?.[1] ?? "";
        const place = badge.closest('[data-component-name="Menu/MenuItem"]')
          ? "sidebar"
          : badge.closest('h2, [data-component-name="Typography/H2"]')
            ? "operation title"
            : property
              ? property.id.includes("t=response") && headerList.includes(path)
                ? "response header"
                : "field or parameter"
              : badge.closest("[data-component-name]")
                ? "description"
                : "hand-made page";
        return { look, place };
      });
      return { looks, loose };
    },
    { selector: ASSUMED_BADGE_SELECTOR, label: ASSUMED_LABEL, headerList: [...headers], scope: within },
  );
  expect(found.loose).toEqual([]);
  return found.looks;
}

describe("a development tool's document is one more entry of the list", () => {
  let toolOut: string;

  beforeAll(async () => {
    toolOut = mkdtempSync(join(tmpdir(), "docs-tool-test-"));
    await buildDocs(toolOut, [
      ...DOCS_DOCUMENTS,
      { name: "tool", source: "test/docs/fixtures/tool.yaml", kind: "development tool" },
    ]);
  }, 120_000);

  afterAll(() => {
    if (toolOut) rmSync(toolOut, { recursive: true, force: true });
  });

  it("gets its page, marked as not part of the service contracts, and an index entry", async () => {
    const index = readFileSync(join(toolOut, "index.html"), "utf8");
    expect(index).toContain('<a href="tool.html">Example tool API</a>');
    expect(index).toMatch(
      /development tool, not part of the service contracts; source <code>test\/docs\/fixtures\/tool\.yaml/,
    );
    const tool = readFileSync(join(toolOut, "tool.html"), "utf8");
    expect(tool).toContain("Development tool.");
    expect(tool).toContain("not part of the service contracts");
    // Nothing of it is on the "Confirmed vs assumed" page: that page is about the service contracts.
    expect(readFileSync(join(toolOut, "assumptions.html"), "utf8")).not.toContain("tool.html");
  });
});
