// Where the setup file finds the suite log of the current test file, if it has one. The log (with
// Ajv and both documents) is loaded only once a file builds its first mock, so test files without
// one do not pay for it. The quick suite runs its files one after another in one module graph
// (vitest.config.ts, `isolate: false`): what a file leaves in these modules is cleared at its end.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ConformanceRecord } from "./conformance-observer.js";

/** Holds one directory of records per test run, and `latest`, the name of the newest. */
export const RECORDS_ROOT = fileURLToPath(new URL("../../test-results/conformance/", import.meta.url));

export interface SuiteLog {
  takeViolations(): string[];
  /** What the file's mocks did, or undefined when it built none. */
  record(file: string): ConformanceRecord | undefined;
}

let current: SuiteLog | undefined;
const fileEndHooks: (() => void)[] = [];

export function registerSuiteLog(log: SuiteLog): void {
  current = log;
}

/** The current test file's suite log, or undefined when no file so far built a mock. */
export function loadedSuiteLog(): SuiteLog | undefined {
  return current;
}

/** `clear` runs when a test file ends: a module's state of one file must not reach the next. */
export function onFileEnd(clear: () => void): void {
  fileEndHooks.push(clear);
}

/** Clears what the file that just ended left behind. */
export function endFile(): void {
  for (const clear of fileEndHooks) clear();
}

/** Writes a test file's record into the run's directory. */
export function writeRecord(runDir: string, record: ConformanceRecord): void {
  mkdirSync(runDir, { recursive: true });
  writeFileSync(join(runDir, `${record.file.replace(/[^A-Za-z0-9]+/g, "_")}.json`), JSON.stringify(record));
}
