// The suite with msw 3 in place of msw 2 (`npm test` uses msw 2): every `msw`, `msw/node` and
// `msw/browser` import, the mocks' own included, resolves to the `msw3` devDependency (an npm alias
// of msw@3). msw 3 needs Node >= 22.12, so .ci/run runs this on Node 24. See decisions/016.
import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.js";

export default mergeConfig(
  base,
  defineConfig({
    resolve: { alias: [{ find: /^msw(\/.*)?$/, replacement: "msw3$1" }] },
    // The browser test serves the example app with the same msw (test/browser/example-app.test.ts).
    test: { env: { MSW_PACKAGE: "msw3" } },
  }),
);
