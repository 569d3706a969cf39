// A page on another loopback origin uses the SDK against the standalone mock in headless Chromium
// (issue 11, point 1): CORS preflights, answers a page may read (RateLimit-Remaining), the control
// API. A page on an origin that is not allowed is refused, and cannot reset the mock; a name that
// rebinds to 127.0.0.1 (DNS rebinding) cannot read /__mock/state. Screenshots in test-results/cors/.
import { mkdir } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { build } from "esbuild";
import type { Page } from "playwright-core";
import { describe, expect, it, onTestFinished } from "vitest";
import { createClock, startMockServer } from "../../mocks/node.js";
import { REPO_ROOT } from "../server/spawn-cli.js";
import { launchChromium } from "../support/chromium.js";
import { FROZEN_AT, TOKEN } from "../support/default-seed.js";

const WAIT = { timeout: 20_000 };
const SHOTS = "test-results/cors";

/** The SDK's root entry point bundled for a page: `window.Kit`. */
async function sdkBundle(): Promise<string> {
  const result = await build({
    entryPoints: [`${REPO_ROOT}src/index.ts`],
    bundle: true,
    format: "iife",
    globalName: "Kit",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}

/** What the allowed page does with the SDK, writing each result into the page as it goes. */
const ALLOWED_PAGE = (mock: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>Another origin</title><script src="/kit.js"></script>
<style>body{font:14px system-ui;margin:24px} li{margin:4px 0} .ok{color:#0a7a2f} .bad{color:#b00020}</style></head>
<body><h1>A page on another origin, the SDK, the standalone mock</h1><p>Mock: <code>${mock}</code></p><ol id="log"></ol>
<script>
const log = (text, ok = true) => { const li = document.createElement("li"); li.textContent = text; li.className = ok ? "ok" : "bad"; document.getElementById("log").append(li); };
window.run = async () => {
  const results = {};
  try {
    const dash = new Kit.DashboardClient({ baseUrl: "${mock}/v1", token: "${TOKEN.unrestricted}", maxRetries: 0 });
    const servers = await dash.servers.list();
    results.servers = servers.totalCount;
    log("servers.list(): " + servers.totalCount + " servers");
    const token = await dash.apiTokens.create({ name: "created from another origin", claims: [] });
    results.tokenLength = token.token.length;
    log("apiTokens.create(): token #" + token.id + ", secret of " + token.token.length + " characters");
    const rebuilds = new Kit.RebuildClient({ baseUrl: "${mock}", partnerId: 1001, apiKey: "mock-rebuild-key-1001", maxRetries: 0 });
    const { data, response } = await rebuilds.submit({ sourceUrl: "https://www.example.com/" }).withResponse();
    results.rebuild = data.status;
    results.requestId = data.requestId;
    results.remaining = response.headers.get("RateLimit-Remaining");
    log("submit(): " + data.status + ", RateLimit-Remaining " + results.remaining);
    const advanced = await fetch("${mock}/__mock/clock/advance", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ seconds: 5 }) });
    results.advance = advanced.status;
    log("POST /__mock/clock/advance: " + advanced.status + " " + (await advanced.text()));
    const again = await rebuilds.submit({ sourceUrl: "https://www.example.com/" });
    results.after = again.status;
    log("the same URL again: " + again.status + (again.previewUrl ? " " + again.previewUrl : ""));
    try {
      await dash.servers.list({ page: 0 });
    } catch (error) {
      results.validation = error.status + " " + error.code;
      log("servers.list({ page: 0 }): " + results.validation);
    }
    try {
      await new Kit.DashboardClient({ baseUrl: "${mock}/v1", token: "nobody", maxRetries: 0 }).servers.list();
    } catch (error) {
      results.challenge = error.headers.get("WWW-Authenticate");
      log("wrong token: " + error.status + ", WWW-Authenticate " + results.challenge);
    }
  } catch (error) {
    results.error = String(error);
    log("failed: " + error, false);
  }
  return results;
};
</script></body></html>`;

/** What a page on an origin that is not allowed tries. */
const EVIL_PAGE = (mock: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>Not allowed</title>
<style>body{font:14px system-ui;margin:24px} li{margin:4px 0}</style></head>
<body><h1>A page on an origin the mock does not allow</h1><ol id="log"></ol>
<script>
const log = (text) => { const li = document.createElement("li"); li.textContent = text; document.getElementById("log").append(li); };
window.run = async () => {
  const results = {};
  try {
    await fetch("${mock}/v1/si/servers", { headers: { authorization: "Bearer ${TOKEN.unrestricted}" } });
    results.api = "read";
  } catch (error) {
    results.api = "blocked: " + error.name;
  }
  log("GET /v1/si/servers with a token: " + results.api);
  try {
    await fetch("${mock}/__mock/state");
    results.state = "read";
  } catch (error) {
    results.state = "blocked: " + error.name;
  }
  log("GET /__mock/state: " + results.state);
  // A "simple" cross-site POST needs no preflight: the mock itself must refuse it.
  const reset = await fetch("${mock}/__mock/reset", { method: "POST", mode: "no-cors", body: "x" });
  results.reset = reset.type;
  log("POST /__mock/reset (no-cors): sent, answer " + reset.type);
  return results;
};
</script></body></html>`;

async function textOf(page: Page): Promise<string> {
  return page.locator("body").innerText();
}

describe("the standalone mock from a browser on another origin", () => {
  it("a loopback page uses the SDK; a page not allowed is refused; a rebinding name cannot read the state", async () => {
    // Chromium makes its CORS preflights out of the page's sight: the mock's observer counts them.
    const preflights: string[] = [];
    const mock = await startMockServer({
      port: 0,
      clock: createClock({ frozenAt: FROZEN_AT }),
      observe: (seen) => {
        if (seen.kind === "request" && seen.edge === "preflight") preflights.push(seen.request.url.pathname);
      },
    });
    onTestFinished(() => mock.close());
    const kit = await sdkBundle();
    const pages = createServer((req, res) => {
      const host = req.headers.host ?? "";
      if (req.url === "/kit.js") {
        res.writeHead(200, { "content-type": "text/javascript" }).end(kit);
      } else if (host.startsWith("evil.test")) {
        res.writeHead(200, { "content-type": "text/html" }).end(EVIL_PAGE(mock.origin));
      } else {
        res.writeHead(200, { "content-type": "text/html" }).end(ALLOWED_PAGE(mock.origin));
      }
    });
    pages.listen(0, "127.0.0.1");
    await new Promise((resolve) => pages.once("listening", resolve));
    onTestFinished(() => new Promise<void>((resolve) => pages.close(() => resolve())));
    const pagePort = (pages.address() as AddressInfo).port;
    const mockPort = new URL(mock.origin).port;

    const browser = await launchChromium([
      // A made-up name for an origin the mock does not allow, resolving to loopback as a
      // rebinding attacker's name would.
      "--host-resolver-rules=MAP evil.test 127.0.0.1",
    ]);
    onTestFinished(() => browser.close());
    await mkdir(SHOTS, { recursive: true });

    // 1. A page on another loopback origin (another port: another origin).
    const allowed = await browser.newPage();
    const pageOrigin = `http://127.0.0.1:${pagePort}`;
    await allowed.goto(`${pageOrigin}/`, WAIT);
    expect(pageOrigin).not.toBe(mock.origin);
    const results = (await allowed.evaluate("window.run()")) as Record<string, unknown>;
    expect(results).toEqual({
      servers: 3,
      tokenLength: expect.any(Number),
      rebuild: "running",
      requestId: expect.any(String),
      remaining: "29",
      advance: 200,
      after: "success",
      validation: "400 VALIDATION_FAILED",
      challenge: 'Bearer realm="dashboard", error="invalid_token"',
    });
    expect(
      mock.world.listSinkEntries(1001).data.map((entry) => (entry.body as { request_id: string }).request_id),
    ).toEqual([results.requestId]);
    await allowed.screenshot({ path: `${SHOTS}/allowed-origin.png`, fullPage: true });
    expect(await textOf(allowed)).toContain("RateLimit-Remaining 29");

    // 2. A page on an origin that is not allowed.
    const tokensBefore = mock.world.state().dashboard.tokens.length;
    const evil = await browser.newPage();
    const consoleErrors: string[] = [];
    evil.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    await evil.goto(`http://evil.test:${pagePort}/`, WAIT);
    const refused = (await evil.evaluate("window.run()")) as Record<string, unknown>;
    expect(refused).toEqual({ api: "blocked: TypeError", state: "blocked: TypeError", reset: "opaque" });
    expect(consoleErrors.join("\n")).toMatch(/CORS policy/);
    // The reset reached the mock and was refused before it changed anything.
    expect(mock.world.state().dashboard.tokens.length).toBe(tokensBefore);
    expect(mock.world.state().rebuild.rebuilds).toHaveLength(1);
    await evil.screenshot({ path: `${SHOTS}/refused-origin.png`, fullPage: true });

    // 3. DNS rebinding: the attacker's name now points at the mock itself.
    const rebound = await browser.newPage();
    const answer = await rebound.goto(`http://evil.test:${mockPort}/__mock/state`, WAIT);
    expect(answer?.status()).toBe(403);
    expect(JSON.parse(await rebound.locator("body").innerText())).toEqual({
      message: expect.stringContaining("Host evil.test"),
      error: { code: "FORBIDDEN" },
    });
    await rebound.screenshot({ path: `${SHOTS}/rebinding-refused.png`, fullPage: true });
    expect(new Set(preflights)).toEqual(
      new Set([
        "/v1/si/servers",
        "/v1/dashboard/api-tokens",
        "/api/integration/partners/hostpanel/rebuilds",
        "/__mock/clock/advance",
      ]),
    );
  }, 90_000);
});
