// Vitest setup file (vitest.config.ts `setupFiles`): every mock any test builds, through
// `createHandlers`, `startMockServer` or `createMockDispatcher` itself, gets the conformance observer
// attached, so each request and answer of the whole suite is checked against openapi/ in both
// directions without a test having to ask. A violation fails the test it happened in.
// See decisions/012-conformance-observer.md.
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, expect, inject, vi } from "vitest";
import { endFile, loadedSuiteLog, writeRecord } from "./conformance-registry.js";

vi.mock(import("../../mocks/http/mock-dispatcher.js"), async (importOriginal) => {
  const original = await importOriginal();
  // Imported here: vi.mock is hoisted above this file's imports, and only test files that use the
  // mock pay for loading Ajv and the documents.
  const { suiteLog: log } = await import("./conformance-observer.js");
  return {
    ...original,
    createMockDispatcher: (world, options = {}) => {
      const check = log.observer(world, options);
      const own = options.observe;
      return original.createMockDispatcher(world, {
        ...options,
        observe: (observation) => {
          check(observation);
          own?.(observation);
        },
      });
    },
  };
});

function failOnViolations(where: string): void {
  const violations = loadedSuiteLog()?.takeViolations() ?? [];
  if (violations.length === 0) return;
  throw new Error(
    `${violations.length} exchange(s) ${where} do not match openapi/:\n${violations.slice(0, 10).join("\n")}${
      violations.length > 10 ? `\n… and ${violations.length - 10} more` : ""
    }`,
  );
}

afterEach(() => failOnViolations("in this test"));

// Registered before the test file's own hooks, so it runs after them (hooks unwind as a stack):
// what a file's afterAll still sends is checked too.
// The file's record is written and its state cleared, for the next file in the same module graph.
afterAll(() => {
  try {
    const root = fileURLToPath(new URL("../../", import.meta.url));
    const record = loadedSuiteLog()?.record(relative(root, expect.getState().testPath ?? "unknown"));
    if (record) writeRecord(inject("conformanceRunDir"), record);
    failOnViolations("outside any test of this file");
  } finally {
    endFile();
  }
});
