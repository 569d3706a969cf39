import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "examples/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ["default"],
    // Every request and answer of every mock the suite builds is checked against openapi/, and the
    // documented responses seen are recorded for test/conformance/coverage-report.ts.
    globalSetup: ["test/support/conformance-global-setup.ts"],
    setupFiles: ["test/support/conformance-setup.ts", "test/support/fixed-seed.ts"],
  },
});
