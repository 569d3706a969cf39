// The suite with msw 3 in place of msw 2 (`npm test` uses msw 2): every `msw`, `msw/node` and
// `msw/browser` import, the mocks' own included, resolves to the `msw3` devDependency (an npm alias
// of msw@3). msw 3 needs Node >= 22.12, so .ci/run runs this on Node 24. See decisions/016.
// Everything that runs a mock, the SDK, the bin or the package runs again; see `exclude`.
import { configDefaults, defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.js";

export default mergeConfig(
  base,
  defineConfig({
    resolve: { alias: [{ find: /^msw(\/.*)?$/, replacement: "msw3$1" }] },
    test: {
      // The browser test serves the example app with the same msw (test/browser/example-app.test.ts).
      env: { MSW_PACKAGE: "msw3" },
      // What neither msw nor the Node version can change, and the Node 20 run already covers: the
      // contract's own checks, the reference docs, other generators' clients, Prism.
      exclude: [
        ...configDefaults.exclude,
        "test/contract/**",
        "test/docs/**",
        "test/generators/**",
        "test/prism/**",
      ],
    },
  }),
);
