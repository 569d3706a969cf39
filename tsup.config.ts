import { copyFile } from "node:fs/promises";
import { defineConfig } from "tsup";
import { writeMswPeerGuards } from "./scripts/build/msw-peer-guards.js";

// The package's public entry points (package.json `exports`), each built as ESM (.js + .d.ts) and
// CJS (.cjs + .d.cts) so that both `import` and `require` get their own types.
export const library = {
  index: "src/index.ts",
  "webhooks/index": "src/webhooks/index.ts",
  "mocks/index": "mocks/index.ts",
  "mocks/node": "mocks/node.ts",
  "mocks/browser": "mocks/browser.ts",
  // The control API's client: no msw (it must not import from the other mocks entry points).
  "mocks/control": "mocks/control/index.ts",
  // zod schemas generated from the contract (decisions/041); zod is an optional peer, imported only here.
  "zod/index": "src/zod/index.ts",
};

export default defineConfig({
  // The bin (package.json `bin`, run as ESM); it shares chunks with the library but needs no types.
  entry: { ...library, "mocks/cli": "mocks/server/cli.ts" },
  format: ["esm", "cjs"],
  // `@internal` members (the resources' constructors, which take the internal transport) are left
  // out of the declarations: a public d.ts names no internal type (decisions/047).
  dts: { entry: library, compilerOptions: { stripInternal: true } },
  sourcemap: true,
  clean: true,
  target: "es2022",
  splitting: true,
  treeshake: true,
  // msw is an optional peer: only the mocks entry points load it, and the bin must not.
  // zod likewise, for the zod entry point.
  external: ["msw", "msw/node", "msw/browser", "zod"],
  onSuccess: async () => {
    // Ships the MSW worker script the browser mock was built against, for apps that do not run `msw init`.
    await copyFile("node_modules/msw/lib/mockServiceWorker.js", "dist/mockServiceWorker.js");
    // Node's entry points for the mocks: "install msw" when it is missing (package.json `exports`).
    await writeMswPeerGuards("dist");
  },
});
