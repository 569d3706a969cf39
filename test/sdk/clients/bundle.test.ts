import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { expect, it } from "vitest";

// What a browser app pays for the clients: the same measure as `npm run bench` (1 kB = 1000 B).
const BUDGET_BYTES = 6000;

it("an app importing only the two clients stays within 6 kB min+gz, without zod or the webhook receiver", async () => {
  const result = await build({
    stdin: {
      contents: 'export { DashboardClient, RebuildClient } from "./src/index.ts";',
      resolveDir: process.cwd(),
      sourcefile: "app.ts",
      loader: "ts",
    },
    bundle: true,
    minify: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  expect(gzipSync(code, { level: 9 }).length).toBeLessThanOrEqual(BUDGET_BYTES);
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs.filter((path) => path.includes("zod"))).toEqual([]);
  expect(inputs.filter((path) => path.startsWith("src/webhooks/"))).toEqual(["src/webhooks/errors.ts"]);
  expect(inputs.filter((path) => path.startsWith("mocks/"))).toEqual([]);
});
