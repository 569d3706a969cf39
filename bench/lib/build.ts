import { rmSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";

export const ROOT = new URL("../../", import.meta.url).pathname;

/**
 * The programs the bench runs with plain `node`, compiled ahead of time into a temp dir (a
 * TypeScript loader would add its own start-up cost): the mock's CLI, the raw node:http ceiling
 * and the scale worker. Fully bundled, as a published single-file server would be.
 */
export interface Programs {
  dir: string;
  mockCli: string;
  ceiling: string;
  scaleWorker: string;
  remove(): Promise<void>;
}

export async function buildPrograms(): Promise<Programs> {
  const dir = await mkdtemp(join(tmpdir(), "rdk-bench-"));
  // Also when the bench is interrupted (Ctrl+C ends it through process.exit).
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  await build({
    entryPoints: {
      "mock-cli": join(ROOT, "mocks/server/cli.ts"),
      ceiling: join(ROOT, "bench/entries/ceiling-server.ts"),
      "scale-worker": join(ROOT, "bench/entries/scale-worker.ts"),
    },
    outdir: dir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "warning",
    // Bundled CommonJS dependencies may still call require() for Node built-ins.
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
  });
  return {
    dir,
    mockCli: join(dir, "mock-cli.mjs"),
    ceiling: join(dir, "ceiling.mjs"),
    scaleWorker: join(dir, "scale-worker.mjs"),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
