import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { ROOT } from "../lib/build.js";
import { atMost, type Figure, ratio } from "../lib/figures.js";

/** An app entry bundled as a browser app would be: minified ESM, then gzip -9. */
async function appSize(contents: string): Promise<{ minified: number; gzipped: number }> {
  const result = await build({
    stdin: { contents, resolveDir: ROOT, sourcefile: "bench-app.ts", loader: "ts" },
    bundle: true,
    minify: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length };
}

const BUDGET_BYTES = 6000;

/** 5. What an app pays for the clients only, and for the webhook receiver. */
export async function benchBundleSize(log: (line: string) => void) {
  const section = "5. Bundle size (min+gz)";
  const clients = await appSize('export { DashboardClient, RebuildClient } from "./src/index.ts";');
  const webhooks = await appSize(
    'export { parseRebuildCallback, createRebuildWebhookHandler } from "./src/webhooks/index.ts";',
  );
  log(
    `${section}: clients ${clients.gzipped} B gz (${clients.minified} B min), webhooks ${webhooks.gzipped} B gz`,
  );
  const figures: Figure[] = [
    {
      section,
      name: "app importing DashboardClient + RebuildClient",
      value: clients.gzipped,
      unit: "B",
      ratio: ratio(clients.gzipped, BUDGET_BYTES),
      ratioOf: "× the 6 kB budget",
      target: atMost(clients.gzipped, BUDGET_BYTES, "≤ 6 kB gz"),
      note: `${clients.minified.toLocaleString("en-US")} B minified`,
    },
    {
      section,
      name: "app importing ./webhooks (parse + handler)",
      value: webhooks.gzipped,
      unit: "B",
      compared: { label: "clients-only app", value: clients.gzipped },
      ratio: ratio(webhooks.gzipped, clients.gzipped),
      ratioOf: "× clients-only app",
      note: `${webhooks.minified.toLocaleString("en-US")} B minified; includes zod`,
    },
  ];
  return { figures, raw: { clients, webhooks } };
}
