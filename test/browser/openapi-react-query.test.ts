// openapi-react-query works with `dash.http` (issue 20, point 1): a React page on another loopback
// origin reads the standalone mock through `createClient(dash.http)` and `useQuery`, in headless
// Chromium. Screenshot in test-results/react-query/.
import { mkdir } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { build } from "esbuild";
import { expect, it, onTestFinished } from "vitest";
import { createClock, startMockServer } from "../../mocks/node.js";
import { REPO_ROOT } from "../server/spawn-cli.js";
import { launchChromium } from "../support/chromium.js";
import { FROZEN_AT, TOKEN } from "../support/default-seed.js";

const WAIT = { timeout: 20_000 };
const SHOTS = "test-results/react-query";

async function pageBundle(): Promise<string> {
  const result = await build({
    entryPoints: [`${REPO_ROOT}test/browser/fixtures/react-query-page.tsx`],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    minify: true,
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}

it("useQuery over createClient(dash.http) lists the mock's servers and gets an error status as the query's error", async () => {
  const requests: string[] = [];
  const mock = await startMockServer({
    port: 0,
    clock: createClock({ frozenAt: FROZEN_AT }),
    observe: (seen) => {
      if (seen.kind === "request" && seen.edge !== "preflight")
        requests.push(`${seen.request.method} ${seen.request.url.pathname}${seen.request.url.search}`);
    },
  });
  onTestFinished(() => mock.close());
  const bundle = await pageBundle();
  const pages = createServer((req, res) => {
    if (req.url === "/page.js") {
      res.writeHead(200, { "content-type": "text/javascript" }).end(bundle);
      return;
    }
    res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html>
<html><head><meta charset="utf-8"><title>openapi-react-query</title>
<style>body{font:14px system-ui;margin:24px}</style></head>
<body><div id="root"></div>
<script>window.MOCK = ${JSON.stringify(mock.origin)}; window.TOKEN = ${JSON.stringify(TOKEN.unrestricted)};</script>
<script src="/page.js"></script></body></html>`);
  });
  pages.listen(0, "127.0.0.1");
  await new Promise((resolve) => pages.once("listening", resolve));
  onTestFinished(() => new Promise<void>((resolve) => pages.close(() => resolve())));

  const browser = await launchChromium();
  onTestFinished(() => browser.close());
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  await page.goto(`http://127.0.0.1:${(pages.address() as AddressInfo).port}/`, WAIT);
  await page.locator("#servers-total").waitFor(WAIT);
  await page.locator("#token-error").waitFor(WAIT);

  expect(await page.locator("#servers-total").innerText()).toBe("3 servers");
  expect(await page.locator(".server").allInnerTexts()).toEqual([
    "https://panel1.example.com:8443 (plesk)",
    "https://panel2.example.com:8443 (plesk)",
  ]);
  expect(await page.locator("#token-error").innerText()).toMatch(/^NOT_FOUND: /);
  expect(errors).toEqual([]);
  // Each query went to the mock once, with the SDK's credentials (the mock answered, not 401).
  expect(requests.sort()).toEqual(["GET /v1/dashboard/api-tokens/999999", "GET /v1/si/servers?pageSize=2"]);
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/servers.png`, fullPage: true });
});
