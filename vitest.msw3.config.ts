// The suite's msw-facing part with msw 3 in place of msw 2, on Node 24 (`npm test` runs everything
// with msw 2 on Node 20): every `msw`, `msw/node` and `msw/browser` import, the mocks' own included,
// resolves to msw 3, which this config installs into `.cache/msw3/` when it is not there yet
// (scripts/msw3.ts; not a devDependency, so `npm ci` on Node 20 stays quiet). msw 3 needs
// Node >= 22.12, so .ci/run runs this on Node 24. See decisions/016, decisions/045 and decisions/053
// (which files, and what the narrower run gives up).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { configDefaults, defineConfig, mergeConfig } from "vitest/config";
import { ensureMsw3 } from "./scripts/msw3.js";
import base from "./vitest.config.js";

const msw3 = ensureMsw3();
// Any file in the project msw 3 is installed in: `msw` imported from there is msw 3.
const besideMsw3 = join(msw3, "package.json");

/**
 * The files that run msw's code in this process: they import msw themselves (`from "msw…"`, the
 * browser worker's test and the pack test's consumers included), build the mock's msw handlers
 * (`createHandlers(`) or take a harness that does (test/http's `useMswMock(`, test/sdk/clients'
 * `./harness.js`). Read from the files, so a new one is in without editing a list. Files that merely
 * load the mocks (msw among their modules) but serve them over node:http, or spawn a CLI (a child
 * process never resolves through this config: it loads msw 2), are not: msw 3 cannot change them.
 */
const USES_MSW = /from "msw|createHandlers\(|useMswMock\(|from "\.\/harness\.js"/;
/**
 * What only the Node major can change, as a smoke: the SDK on Node 24's fetch (all of test/sdk, in
 * process), and the standalone server on Node 24's node:http (its start, its listener, its edge).
 */
const NODE_SMOKE = [/^test\/sdk\//, /^test\/server\/(start-mock-server|node-listener|edge)\.test\.ts$/];
/** Never here: what neither msw nor Node changes, the Node 20 run covers it (the contract's checks). */
const NEITHER = /^test\/(contract|docs|generators|prism)\//;

const testFiles = ["test", "examples"].flatMap((dir) =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((file) => `${dir}/${file.split("\\").join("/")}`)
    .filter((file) => file.endsWith(".test.ts") && !file.includes("node_modules")),
);
const selected = (file: string): boolean =>
  !NEITHER.test(file) &&
  (USES_MSW.test(readFileSync(file, "utf8")) || NODE_SMOKE.some((smoke) => smoke.test(file)));

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
      exclude: [...configDefaults.exclude, ...testFiles.filter((file) => !selected(file))],
      // Not the type tests either: tsc never sees this config's msw 3 (.ci/run's "examples
      // type-check against msw 3" is the msw 3 type check), so they would only repeat the Node 20 run.
      typecheck: { exclude: ["**/*.test-d.ts"] },
    },
  }),
);
