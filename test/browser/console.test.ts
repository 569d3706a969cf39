// The mock console in Debian's Chromium against `npm start`, spawned as README says (issue 14,
// point 1; decisions/032): a rebuild submitted over HTTP appears without a reload, "advance" (pressed
// with the keyboard) makes it `success` with its callback attempt listed, "Rotate key" makes the old
// key fail, a failed delivery shows what the receiver answered, and payloads in the data the page
// shows never run. Every request the page makes is recorded (and anything off the mock's origin
// refused): all of them go to the mock. Screenshots in test-results/console/;
// UPDATE_CONSOLE_SCREENSHOT=1 refreshes the copy README shows (assets/console.png).
import { copyFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { npmStart, REPO_ROOT, type SpawnedCli, stopAll } from "../server/spawn-cli.js";
import { launchChromium } from "../support/chromium.js";
import { PARTNER, TOKEN } from "../support/default-seed.js";

const SHOTS = "test-results/console";
const REBUILDS = "/api/integration/partners/hostpanel/rebuilds";
const WAIT = { timeout: 15_000 };

let cli: SpawnedCli;
let origin = "";
let browser: Browser;
let page: Page;
/** Every request the page made, as `METHOD url`. */
const requested: string[] = [];
/** What the receiver that always fails got. */
const failing: Array<{ headers: IncomingMessage["headers"]; body: string }> = [];
let failingUrl = "";
const failingReceiver = createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk: string) => {
    body += chunk;
  });
  req.on("end", () => {
    failing.push({ headers: req.headers, body });
    res.writeHead(500, { "content-type": "application/json" }).end('{"error":"receiver is down"}');
  });
});

beforeAll(async () => {
  failingReceiver.listen(0, "127.0.0.1");
  await new Promise((resolve) => failingReceiver.once("listening", resolve));
  failingUrl = `http://127.0.0.1:${(failingReceiver.address() as AddressInfo).port}/webhooks/rebuild`;
  cli = npmStart(["--port", "0"]);
  origin = await cli.listening();
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route("**/*", async (route) => {
    const url = route.request().url();
    requested.push(`${route.request().method()} ${url}`);
    if (url.startsWith(`${origin}/`)) return route.continue();
    return route.abort("blockedbyclient");
  });
  // Whatever a payload managed to run, or tried to and the page's CSP refused, is written down.
  await context.addInitScript(() => {
    const seen = window as unknown as { __violations: string[]; __dialogs: number };
    seen.__violations = [];
    document.addEventListener("securitypolicyviolation", (event) =>
      seen.__violations.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  page = await context.newPage();
  page.on("dialog", (dialog) => {
    requested.push(`DIALOG ${dialog.message()}`);
    void dialog.dismiss();
  });
  await mkdir(SHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stopAll();
  await new Promise<void>((resolve) => failingReceiver.close(() => resolve()));
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const answer = await fetch(`${origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

const partnerHeaders = (apiKey: string) => ({ "x-partner-id": PARTNER.ok.id, "x-api-key": apiKey });
const submit = (sourceUrl: string, apiKey: string, extra: Record<string, unknown> = {}) =>
  post(REBUILDS, { sourceUrl, ...extra }, partnerHeaders(apiKey));

/** The rebuild's card, found by its heading (the source URL). */
const card = (sourceUrl: string) => page.getByRole("article", { name: sourceUrl, exact: true });

describe("the mock console in Chromium, against npm start", () => {
  it("prints its URL in the banner, and opens live with nothing from the network", async () => {
    expect(cli.stdout()).toContain(`  Console             ${origin}/__mock/console`);
    await page.goto(`${origin}/__mock/console`, WAIT);
    await page.getByText("Live", { exact: true }).waitFor(WAIT);
    await page.getByText("No rebuild yet.").waitFor(WAIT);
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });
    expect(await page.locator("#clock-now").innerText()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    // Labels and names: every control has a label, every button a name, every section a heading.
    const unnamed = await page.evaluate(() => [
      ...[...document.querySelectorAll("input")].filter((i) => i.labels?.length === 0).map((i) => i.id),
      ...[...document.querySelectorAll("button")]
        .filter((b) => b.innerText.trim() === "" && !b.ariaLabel)
        .map((b) => b.id),
      ...[...document.querySelectorAll("section")].filter((s) => !s.querySelector("h2")).map((s) => s.id),
    ]);
    expect(unnamed).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/empty.png`, fullPage: true });
  });

  it("shows a rebuild submitted over HTTP within a second, without a reload", async () => {
    const url = "https://www.example.com/";
    const submitted = await submit(url, PARTNER.ok.apiKey);
    expect(submitted.status).toBe(202);
    // The issue's own bar: within a second of the answer, pushed by the event stream.
    await card(url).waitFor({ timeout: 1_000 });
    await expect(card(url).locator(".badge").first().innerText()).resolves.toBe("running");
    expect(await card(url).innerText()).toContain(String(submitted.body.requestId));
    expect(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
    ).toBe(true);
  });

  it("advances the clock from the keyboard: the rebuild turns success with its callback attempt listed", async () => {
    const url = "https://www.example.com/";
    // Tab from the top of the page to the "+5 s" button, as someone without a mouse would.
    await page.locator("body").focus();
    let focused = "";
    for (let presses = 0; presses < 40 && focused !== "Advance the clock 5 seconds"; presses++) {
      await page.keyboard.press("Tab");
      focused = await page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? "");
    }
    expect(focused).toBe("Advance the clock 5 seconds");
    // Visible focus: the outline is drawn.
    expect(await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle)).toBe(
      "solid",
    );
    await page.keyboard.press("Enter");

    await card(url).locator(".badge.status-success").waitFor(WAIT);
    const attempt = card(url).locator(".attempt").first();
    await attempt.getByText("receiver 200").waitFor(WAIT);
    expect(await attempt.innerText()).toContain(`${origin}/__mock/webhook-sink/1001`);
    await page
      .getByRole("status")
      .getByText(/is now success/)
      .waitFor(WAIT);
    expect(await page.locator("#clock-offset").innerText()).toMatch(/ahead of real time/);

    // Headers and body on demand, opened with the keyboard.
    await attempt.locator("summary").focus();
    await page.keyboard.press("Enter");
    const opened = await attempt.locator("details").innerText();
    expect(opened).toContain(`x-api-key: ${PARTNER.ok.webhookApiKey}`);
    expect(opened).toContain('"status": "success"');
    expect(await card(url).getByRole("link").getAttribute("href")).toMatch(/^https:\/\/preview\./);
    await page.screenshot({ path: `${SHOTS}/success.png`, fullPage: true });
  });

  it("rotates a partner's key: the old key gets 401 afterwards, the new one works", async () => {
    await page.getByRole("button", { name: "Rotate the rebuild API key of partner 1001" }).click();
    const said = page.getByRole("status").getByText(/Partner 1001 has a new rebuild API key: rk_/);
    await said.waitFor(WAIT);
    const newKey = /key: (rk_[0-9a-f]+)\./.exec(await said.innerText())?.[1] ?? "";
    expect(newKey).toMatch(/^rk_[0-9a-f]{48}$/);
    await page.locator("#partner-rows code.key").filter({ hasText: newKey }).waitFor(WAIT);
    // The row was drawn again with the new key; focus is back on the button that was pressed.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
      "Rotate the rebuild API key of partner 1001",
    );

    const old = await submit("https://rotated.example.com/", PARTNER.ok.apiKey);
    expect(old.status).toBe(401);
    const fresh = await submit("https://rotated.example.com/", newKey);
    expect(fresh.status).toBe(202);
    await card("https://rotated.example.com/").waitFor(WAIT);
    await page.screenshot({ path: `${SHOTS}/rotated.png`, fullPage: true });
  });

  it("shows a failed delivery with what the receiver answered (500)", async () => {
    // Point partner 1001's webhook at a receiver that always answers 500, through the page's form.
    await page.getByRole("button", { name: "Edit partner 1001" }).click();
    const webhook = page.getByLabel("Webhook URL");
    await expect(webhook.inputValue()).resolves.toBe(`${origin}/__mock/webhook-sink/1001`);
    await webhook.fill(failingUrl);
    await webhook.press("Enter");
    await page.getByRole("status").getByText("Partner 1001 saved.").waitFor(WAIT);
    await page.locator("#partner-rows").getByText(failingUrl).waitFor(WAIT);

    const apiKey = (await page.locator("#partner-rows tr").first().locator("code.key").innerText()).trim();
    const url = "https://receiver-down.example.com/";
    expect((await submit(url, apiKey)).status).toBe(202);
    await card(url).waitFor(WAIT);
    await card(url)
      .getByRole("button", { name: `Complete the rebuild of ${url}` })
      .focus();
    await page.keyboard.press("Enter");
    const attempt = card(url).locator(".attempt").first();
    await attempt.getByText("receiver 500").waitFor(WAIT);
    // The button is gone with the running state: focus went to the rebuild it belonged to.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-labelledby"))).toMatch(
      /^rebuild-title-/,
    );
    expect(await attempt.innerText()).toContain(failingUrl);
    expect(failing).toHaveLength(1);
    expect(JSON.parse(failing[0]?.body ?? "{}")).toMatchObject({ status: "success" });
    await page.screenshot({ path: `${SHOTS}/failed-delivery.png`, fullPage: true });

    // The README's picture: the clock, three rebuilds (a callback answered 200, one answered 500, one
    // running) and the partners with their rate limits.
    for (const open of await page.locator("details[open] summary").all()) await open.click();
    await page.evaluate(() => window.scrollTo(0, 0));
    const partners = await page.locator("#partners table").boundingBox();
    const height = Math.ceil((partners?.y ?? 1200) + (partners?.height ?? 0) + 16);
    await page.screenshot({
      path: `${SHOTS}/console.png`,
      clip: { x: 0, y: 0, width: 1280, height },
      fullPage: true,
    });
    if (process.env.UPDATE_CONSOLE_SCREENSHOT === "1") {
      copyFileSync(join(SHOTS, "console.png"), join(REPO_ROOT, "assets", "console.png"));
    }
  });

  it("shows what users and receivers sent as text: no payload runs", async () => {
    const apiKey = (await page.locator("#partner-rows tr").first().locator("code.key").innerText()).trim();
    const script = "<script>window.__xss='prompt'</script><img src=x onerror=\"window.__xss='prompt-img'\">";
    // URLs cannot hold < > " or spaces (the contract refuses them), so theirs are the quote and
    // percent-encoded kinds.
    const hostileWebhook =
      "https://hooks.example.test/'onmouseover='window.__xss=1'/%3Cscript%3Ealert(1)%3C/script%3E";
    const hostileSource = "https://www.example.com/'%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E";
    expect(
      (
        await fetch(`${origin}/__mock/partners/2001`, {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ webhookUrl: hostileWebhook }),
        })
      ).status,
    ).toBe(200);
    const sinkBody = `<script>window.__xss='sink'</script><img src=x onerror="window.__xss='sink-img'">`;
    const sunk = await fetch(`${origin}/__mock/webhook-sink/1001`, {
      method: "POST",
      headers: { "content-type": "text/html", "x-note": "<img src=x onerror=window.__xss='header'>" },
      body: sinkBody,
    });
    expect(sunk.status).toBe(200);
    expect((await submit(hostileSource, apiKey, { prompt: script })).status).toBe(202);
    const token = await post(
      "/v1/dashboard/api-tokens",
      { name: "<img src=x onerror=window.__xss='token'>", claims: [] },
      { authorization: `Bearer ${TOKEN.unrestricted}` },
    );
    expect(token.status).toBe(201);
    const stalled = await submit("https://stall.example.com/", apiKey);
    const failed = await post(`/__mock/rebuilds/${String(stalled.body.requestId)}/complete`, {
      status: "failed",
      errorCode: "<b>bold</b>",
      errorMessage: "<img src=x onerror=window.__xss='error'>",
    });
    expect(failed.status).toBe(200);

    // Each shows up, literally, as text.
    await page.locator("#partner-rows").getByText(hostileWebhook).waitFor(WAIT);
    await page.locator("#sink-list .summary").getByText(sinkBody).waitFor(WAIT);
    await card(hostileSource).getByText(script).waitFor(WAIT);
    await page.locator("#token-rows").getByText("<img src=x onerror=window.__xss='token'>").waitFor(WAIT);
    await card("https://stall.example.com/")
      .getByText("<b>bold</b>: <img src=x onerror=window.__xss='error'>")
      .waitFor(WAIT);
    const sinkEntry = page.locator("#sink-list article").first();
    await sinkEntry.locator("summary").click();
    await sinkEntry.getByText("x-note: <img src=x onerror=window.__xss='header'>").waitFor(WAIT);
    await page.locator("#partner-rows").getByText(hostileWebhook).hover();

    const effects = await page.evaluate(() => {
      const seen = window as unknown as { __xss?: unknown; __violations: string[] };
      return {
        xss: seen.__xss ?? null,
        images: document.querySelectorAll("img").length,
        scripts: document.scripts.length,
        bold: document.querySelectorAll("main b").length,
        violations: seen.__violations,
      };
    });
    // Nothing ran, nothing was even parsed as markup: no element made, so the CSP had nothing to refuse.
    expect(effects).toEqual({ xss: null, images: 0, scripts: 1, bold: 0, violations: [] });
    await page.locator("#sink").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/payloads-as-text.png`, fullPage: true });
  });

  it("lists requests to both APIs in the request journal, live, filtered by operation and status", async () => {
    const rows = page.locator("#journal-rows tr");
    await rows.first().waitFor(WAIT);
    // A request now shows at the top without a reload: its operation, status and caller.
    await fetch(`${origin}/v1/si/servers`, { headers: { authorization: `Bearer ${TOKEN.unrestricted}` } });
    await rows.first().getByText("GET /v1/si/servers").waitFor(WAIT);
    const newest = (await rows.first().innerText()).split("\t").map((cell) => cell.trim());
    expect(newest).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d$/),
      "dashboard",
      "GET /v1/si/servers",
      "listServers",
      "200",
      expect.stringMatching(/ ms$/),
      "token 1",
      "none",
    ]);

    // A request's body, kept as JSON and found by a part of it.
    await fetch(`${origin}/v1/dashboard/api-tokens`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN.unrestricted}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "journal-body-name", claims: [] }),
    });
    await page.getByLabel("Body contains").fill('{"name":"journal-body-name"}');
    await page.getByLabel("Body contains").press("Enter");
    await vi.waitFor(async () => {
      const shown = await rows.allInnerTexts();
      expect(shown).toHaveLength(1);
      expect(shown[0]).toMatch(/POST \/v1\/dashboard\/api-tokens\s+createApiToken\s+201\b/);
    }, WAIT);
    await rows.first().locator("summary", { hasText: "Body" }).click();
    await rows.first().getByText('"name": "journal-body-name"').waitFor(WAIT);
    await page.getByLabel("Body contains").fill("");

    // The old key's refusal (the rotation above), found with the filters.
    await page.getByLabel("Operation").selectOption("submitRebuild");
    await page.getByLabel("Status").fill("401");
    await page.getByLabel("Status").press("Enter");
    await vi.waitFor(async () => {
      const shown = await rows.allInnerTexts();
      expect(shown.length).toBeGreaterThan(0);
      for (const row of shown)
        expect(row).toMatch(
          /POST \/api\/integration\/partners\/hostpanel\/rebuilds\s+submitRebuild\s+401\b.*anonymous\s+Body$/s,
        );
    }, WAIT);
    await page.locator("#journal").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/journal.png`, fullPage: true });

    // Back to every request.
    await page.getByLabel("Operation").selectOption("");
    await page.getByLabel("Status").fill("");
    await page.getByRole("button", { name: "Filter" }).click();
    await vi.waitFor(async () => expect(await rows.count()).toBeGreaterThan(5), WAIT);
  });

  it("sets and clears injected faults through the form, and resets the mock in two steps", async () => {
    await page.getByLabel("Error rate (0 to 1)").fill("0.25");
    await page.getByLabel("Latency (ms)").fill("20");
    await page.getByLabel("Latency (ms)").press("Enter");
    await page.locator("#faults-now").getByText("Now: 20 ms of latency, 25 % answered 503.").waitFor(WAIT);
    expect(await (await fetch(`${origin}/__mock/faults`)).json()).toEqual({
      latencyMs: 20,
      errorRate: 0.25,
      resetRate: 0,
      rules: [],
    });
    // A scripted rule set over HTTP shows at once, and clears with the rest.
    await fetch(`${origin}/__mock/faults`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rules: [{ operationId: "submitRebuild", status: 503, times: 2 }] }),
    });
    await page
      .locator("#faults-now")
      .getByText("Scripted: the next 2 calls of submitRebuild: answered 503.")
      .waitFor(WAIT);
    await page.getByRole("button", { name: "No faults" }).click();
    await page
      .locator("#faults-now")
      .getByText("No faults injected: both APIs answer normally.")
      .waitFor(WAIT);
    expect(await (await fetch(`${origin}/__mock/faults`)).json()).toMatchObject({ rules: [] });

    await page.getByRole("button", { name: "Reset to the seed…" }).click();
    // The first press only asks; focus moves to "Cancel", the safe answer.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Cancel");
    await page.getByRole("button", { name: "Reset everything" }).click();
    await page.getByText("No rebuild yet.").waitFor(WAIT);
    expect(await page.locator("#partner-rows code.key").first().innerText()).toBe(PARTNER.ok.apiKey);
  });

  it("made every request to the mock's own origin, and reloaded nothing", async () => {
    expect(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
    ).toBe(true);
    const offOrigin = requested.filter((line) => !line.split(" ")[1]?.startsWith(`${origin}/`));
    expect(offOrigin).toEqual([]);
    const paths = new Set(requested.map((line) => new URL(line.split(" ")[1] ?? "").pathname));
    expect([...paths].every((path) => path.startsWith("/__mock/"))).toBe(true);
    for (const path of ["/__mock/console", "/__mock/events", "/__mock/state"]) expect(paths).toContain(path);
    // The console was loaded once: the rest were reads and actions.
    expect(requested.filter((line) => line.endsWith("/__mock/console"))).toHaveLength(1);
  });
});
