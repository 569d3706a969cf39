import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

// The in-process suites `npm run test:quick` runs: domain, http adapters, SDK, contract, support.
const QUICK = ["test/unit", "test/http", "test/sdk", "test/contract", "test/support"];

export default defineConfig({
  test: {
    environment: "node",
    // Two files at a time even on 2 cores, where vitest's default (cores - 1) runs one at a time:
    // most of an isolated file's time is spent waiting on what it started (a CLI, npm, Chromium, a
    // socket) while the other core idles. decisions/053.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ["default"],
    // Every request and answer of every mock the suite builds is checked against openapi/, and the
    // documented responses seen are recorded for test/conformance/coverage-report.ts.
    globalSetup: ["test/support/conformance-global-setup.ts"],
    setupFiles: ["test/support/conformance-setup.ts", "test/support/fixed-seed.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "quick",
          include: QUICK.map((dir) => `${dir}/**/*.test.ts`),
          // These files share one module graph per worker: a fresh worker per file (the default)
          // spent most of the run loading msw, Ajv, zod and the mocks again for each of ~100 files.
          // What a file leaves in a module is its own to undo; the conformance setup clears its
          // logs at each file's end (test/support/conformance-registry.ts). Files are not in the
          // same module graph as the rest: servers, child processes and the built package run isolated.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "isolated",
          include: ["test/**/*.test.ts", "examples/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...QUICK.map((dir) => `${dir}/**`)],
        },
      },
      {
        extends: true,
        test: {
          // Type tests (`*.test-d.ts`): expectTypeOf, assertType and @ts-expect-error, checked by tsc
          // and reported as tests of their own, apart from the run-time ones.
          name: "types",
          include: [],
          typecheck: {
            enabled: true,
            only: true,
            include: ["test/**/*.test-d.ts"],
            tsconfig: "tsconfig.json",
          },
        },
      },
    ],
  },
});
