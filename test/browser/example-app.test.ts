// Drives examples/browser in headless Chromium: the SDK against the mock in an MSW service worker.
// Run with UPDATE_SCREENSHOT=1 to refresh the mock guide's copy of the screenshot (assets/).
import { copyFile, mkdir } from "node:fs/promises";
import mswPackage from "msw/package.json";
import type { Page } from "playwright-core";
import { describe, expect, it, onTestFinished } from "vitest";
import { serveExampleApp } from "../../examples/browser/serve.js";
import { launchChromium } from "../support/chromium.js";

// Bounds every wait on the page; the flow itself takes well under a second once Vite is warm.
const WAIT = { timeout: 15_000 };

/** The page's text for a selector, once it contains `text`. */
async function textOnceIt(page: Page, selector: string, text: string | RegExp): Promise<string> {
  const locator = page.locator(selector).filter({ hasText: text });
  try {
    await locator.waitFor(WAIT);
  } catch (error) {
    const shown = await page.locator("#error").innerText();
    throw new Error(`${selector} never showed ${String(text)}; the page's error line: "${shown}"`, {
      cause: error,
    });
  }
  return locator.innerText();
}

describe("the browser example app", () => {
  it("lists servers, shows a new token's secret once and watches a rebuild complete", async () => {
    // MSW_FROM: where the msw the suite runs with is installed, when not here (vitest.msw3.config.ts
    // sets it to msw 3's).
    const mswFrom = process.env.MSW_FROM;
    const app = await serveExampleApp({ host: "127.0.0.1", port: 0, ...(mswFrom ? { mswFrom } : {}) });
    onTestFinished(() => app.close());
    const browser = await launchChromium();
    onTestFinished(() => browser.close());
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error")
        problems.push(`console error: ${message.text()} (${message.location().url})`);
    });
    // Every API call must be answered by the worker: one that reached the network (Vite) would mean
    // the app made a request before the worker controlled the page.
    const apiResponses: { url: string; fromWorker: boolean }[] = [];
    page.on("response", (response) => {
      const { pathname } = new URL(response.url());
      if (/^\/(v1|api|__mock)\//.test(pathname)) {
        apiResponses.push({ url: response.url(), fromWorker: response.fromServiceWorker() });
      }
    });

    await page.goto(app.url);
    await textOnceIt(page, "#mock-status", "Mock service worker running.");
    // The token list is the app's first request, made on load.
    await textOnceIt(page, "#tokens", "Default unrestricted token");
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(
      new URL("/mockServiceWorker.js", app.url).href,
    );
    // The worker script is the one of the msw the page runs (msw 2, or msw 3 in the msw3 run).
    const workerScript = await (await fetch(new URL("/mockServiceWorker.js", app.url))).text();
    expect(workerScript).toContain(`const PACKAGE_VERSION = '${mswPackage.version}'`);

    await page.getByRole("button", { name: "List servers" }).click();
    const servers = await textOnceIt(page, "#servers", "servers in total");
    expect(servers).toContain("https://panel1.example.com:8443 (plesk)");
    expect(servers).toContain("https://panel2.example.com:8443 (plesk)");
    expect(servers).toContain("3 servers in total");

    await page.getByRole("button", { name: "Create token" }).click();
    await page.locator("#secret").waitFor({ state: "visible", ...WAIT });
    const secret = await page.locator("#secret-value").innerText();
    expect(secret.length).toBeGreaterThan(16);
    const tokens = await textOnceIt(page, "#tokens", "Browser example (read-only MCP) [mcp]");
    expect(tokens).not.toContain(secret);
    await page.getByRole("button", { name: "I have stored it" }).click();
    await page.locator("#secret").waitFor({ state: "hidden", ...WAIT });
    expect(await page.content()).not.toContain(secret);

    await page.getByRole("button", { name: "Submit rebuild" }).click();
    const running = await textOnceIt(page, "#rebuild-status", /: running$/);
    const requestId = running.match(/^Rebuild (\S+): running$/)?.[1];
    expect(requestId).toBeDefined();

    await page.getByRole("button", { name: "Advance mock clock 5 s" }).click();
    expect(await textOnceIt(page, "#rebuild-status", ": success")).toBe(`Rebuild ${requestId}: success`);
    const previewUrl = await page.locator("#preview a").getAttribute("href", WAIT);
    expect(previewUrl).toMatch(/^https?:\/\//);
    const callback = JSON.parse(await textOnceIt(page, "#callback", "request_id"));
    expect(callback).toMatchObject({
      event_type: "partner_project_rebuild_completed",
      request_id: requestId,
      partner_id: 1001,
      status: "success",
      preview_url: previewUrl,
    });

    expect(await page.locator("#error").innerText()).toBe("");
    expect(problems).toEqual([]);
    expect(apiResponses.length).toBeGreaterThanOrEqual(6);
    expect(apiResponses.filter((response) => !response.fromWorker)).toEqual([]);

    // The worker's dispatcher fed the request journal as MSW in Node and the node server do
    // (decisions/030): the app's requests, each with its operation and caller, no query string.
    const journal = await page.evaluate(async () => {
      const answer = await fetch("/__mock/requests");
      return (await answer.json()) as {
        entries: { api: string; path: string; operationId: string | null; caller: object | null }[];
      };
    });
    const operations = journal.entries.map((entry) => entry.operationId);
    expect(operations).toEqual(
      expect.arrayContaining(["listApiTokens", "listServers", "createApiToken", "submitRebuild"]),
    );
    for (const entry of journal.entries) {
      expect(entry.caller).not.toBeNull();
      expect(entry.path).not.toContain("?");
    }

    await mkdir("test-results", { recursive: true });
    await page.screenshot({ path: "test-results/browser-example.png", fullPage: true });
    if (process.env.UPDATE_SCREENSHOT) {
      await mkdir("assets", { recursive: true });
      await copyFile("test-results/browser-example.png", "assets/browser-example.png");
    }
  }, 60_000);
});
