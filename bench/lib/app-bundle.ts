import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { ROOT } from "./build.js";

/** What a browser app that imports only the two clients may cost, min+gz (1 kB = 1000 B). */
export const CLIENTS_BUDGET_BYTES = 9500; // decisions/048

export interface AppBundle {
  minified: number;
  gzipped: number;
  /** Source files in the bundle, relative to the repository root. */
  inputs: string[];
}

/**
 * An app entry (`contents`, resolved from the repository root) bundled as a browser app would be:
 * minified ESM, then gzip -9. The bench reports it; test/sdk/clients/bundle.test.ts holds the budget.
 */
export async function measureAppBundle(contents: string): Promise<AppBundle> {
  const result = await build({
    stdin: { contents, resolveDir: ROOT, sourcefile: "app.ts", loader: "ts" },
    absWorkingDir: ROOT,
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
  return {
    minified: code.length,
    gzipped: gzipSync(code, { level: 9 }).length,
    inputs: Object.keys(result.metafile.inputs),
  };
}
