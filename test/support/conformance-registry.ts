// Where the setup file finds the suite log of the current test file, if it has one. The log (with
// Ajv and both documents) is loaded only once a file builds its first mock, so test files without
// one do not pay for it.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ConformanceRecord } from "./conformance-observer.js";

/** Holds one directory of records per test run, and `latest`, the name of the newest. */
export const RECORDS_ROOT = fileURLToPath(new URL("../../test-results/conformance/", import.meta.url));

export interface SuiteLog {
  takeViolations(): string[];
  record(file: string): ConformanceRecord;
}

let current: SuiteLog | undefined;

export function registerSuiteLog(log: SuiteLog): void {
  current = log;
}

/** The current test file's suite log, or undefined when the file built no mock. */
export function loadedSuiteLog(): SuiteLog | undefined {
  return current;
}

/** Writes a test file's record into the run's directory. */
export function writeRecord(runDir: string, record: ConformanceRecord): void {
  mkdirSync(runDir, { recursive: true });
  writeFileSync(join(runDir, `${record.file.replace(/[^A-Za-z0-9]+/g, "_")}.json`), JSON.stringify(record));
}
