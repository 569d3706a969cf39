import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "webhooks/index": "src/webhooks/index.ts",
    "mocks/index": "mocks/index.ts",
    "mocks/node": "mocks/node.ts",
    "mocks/browser": "mocks/browser.ts",
    "mocks/cli": "mocks/server/cli.ts",
  },
  format: ["esm", "cjs"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "es2022",
  splitting: true,
  treeshake: true,
  external: ["msw", "msw/node", "msw/browser"],
});
