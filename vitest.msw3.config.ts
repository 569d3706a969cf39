// The suite with msw 3 in place of msw 2 (`npm test` uses msw 2): every `msw`, `msw/node` and
// `msw/browser` import, the mocks' own included, resolves to msw 3, which this config installs into
// `.cache/msw3/` when it is not there yet (scripts/msw3.ts; not a devDependency, so `npm ci` on
// Node 20 stays quiet). msw 3 needs Node >= 22.12, so .ci/run runs this on Node 24. See decisions/016
// and decisions/045. Everything that runs a mock, the SDK, the bin or the package runs again; see `exclude`.
import { join } from "node:path";
import { configDefaults, defineConfig, mergeConfig } from "vitest/config";
import { ensureMsw3 } from "./scripts/msw3.js";
import base from "./vitest.config.js";

const msw3 = ensureMsw3();
// Any file in the project msw 3 is installed in: `msw` imported from there is msw 3.
const besideMsw3 = join(msw3, "package.json");

export default mergeConfig(
  base,
  defineConfig({
    plugins: [
      {
        name: "msw-3",
        enforce: "pre",
        resolveId(source) {
          return /^msw(\/|$)/.test(source) ? this.resolve(source, besideMsw3, { skipSelf: true }) : null;
        },
      },
    ],
    test: {
      // The browser test serves the example app with the same msw (test/browser/example-app.test.ts).
      env: { MSW_FROM: msw3 },
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
