// The reference docs as a reader sees them: `npm run docs` builds them (into a temporary directory),
// Debian's Chromium opens every page, and each operation and the webhook must be there, badged
// "Assumed" exactly when the contract marks it `x-assumed`; the "Confirmed vs assumed" page must list
// exactly the reviewed assumed elements (test/contract/assumed-*.ts). Screenshots go to
// test-results/docs/; UPDATE_DOCS_SCREENSHOT=1 refreshes the README's copy (assets/docs-screenshot.png).
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { operationRoute } from "../../scripts/docs-assumed.js";
import { assumedDashboard } from "../contract/assumed-dashboard.js";
import { assumedRebuild } from "../contract/assumed-rebuild.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const SCREENSHOTS = join(root, "test-results", "docs");
const WAIT = { timeout: 15_000 };
const METHODS = ["get", "put", "post", "delete", "patch"] as const;

type Node = Record<string, unknown>;
interface Operation {
  /** `POST /si/servers` or `webhook partner_project_rebuild_completed`. */
  name: string;
  route: string;
  summary: string;
  assumed: boolean;
  webhook: boolean;
}

/** Every operation and webhook of a contract, as the docs should show it. */
function operationsOf(api: "dashboard" | "rebuild"): Operation[] {
  const document = parse(readFileSync(join(root, "openapi", `${api}.yaml`), "utf8")) as Node;
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

let out: string;
let browser: Browser;
let page: Page;
/** Script errors of the pages opened so far; each test checks there are none. */
const pageErrors: string[] = [];

beforeAll(async () => {
  // Checked here rather than skipped, so that a missing browser fails the suite.
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH`);
  }
  out = mkdtempSync(join(tmpdir(), "docs-test-"));
  await promisify(execFile)("npm", ["run", "--silent", "docs", "--", out], { cwd: root, timeout: 120_000 });
  mkdirSync(SCREENSHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on("pageerror", (error) => pageErrors.push(error.message));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

async function open(file: string, hash = ""): Promise<void> {
  await page.goto(`${pathToFileURL(join(out, file)).href}${hash}`);
  expect(pageErrors).toEqual([]);
}

describe("the reference docs in Chromium", () => {
  it("the index links both API pages and the assumptions page", async () => {
    await open("index.html");
    const links = await page
      .locator("a")
      .evaluateAll((anchors) => anchors.map((a) => a.getAttribute("href")));
    expect(links).toEqual(["dashboard.html", "rebuild.html", "assumptions.html"]);
    await page.screenshot({ path: join(SCREENSHOTS, "index.png"), fullPage: true });
  });

  describe.each(["dashboard", "rebuild"] as const)("%s.html", (api) => {
    it.each(operationsOf(api))("shows $name, badged Assumed exactly when assumed", async (operation) => {
      await open(`${api}.html`, operation.route);
      const section = page.locator(`[data-section-id="${operation.route.slice(1)}"]`);
      const title = section.locator("h2").first();
      await title.waitFor(WAIT);
      expect(await title.innerText()).toContain(operation.summary);
      const tags = await title.locator('[data-component-name="Tag/Tag"]').allInnerTexts();
      expect(tags.includes("Assumed"), `the title's tags: ${tags.join(", ")}`).toBe(operation.assumed);
      expect(tags.includes("Webhook")).toBe(operation.webhook);
      // The first paragraph of an assumed operation's description says why, after the badge.
      const first = section.locator('[data-component-name="Markdown/Markdown"]').first();
      expect(await first.locator(".assumed-badge").count()).toBe(operation.assumed ? 1 : 0);
      const shot = `${api}-${operation.route.split("/").at(-1)}.png`;
      await page.screenshot({ path: join(SCREENSHOTS, shot) });
      if (
        process.env.UPDATE_DOCS_SCREENSHOT === "1" &&
        operation.route === "#/server-inventory/connectservers"
      ) {
        copyFileSync(join(SCREENSHOTS, shot), join(root, "assets", "docs-screenshot.png"));
      }
    });
  });

  it("the assumptions page lists exactly the reviewed assumed elements of each contract", async () => {
    await open("assumptions.html");
    const listed = async (id: string) => page.locator(`h2#${id} + table td.pointer code`).allInnerTexts();
    expect((await listed("dashboard")).sort()).toEqual([...assumedDashboard].sort());
    expect((await listed("rebuild")).sort()).toEqual([...assumedRebuild].sort());
    await page.screenshot({ path: join(SCREENSHOTS, "assumptions.png") });
  });
});
