// The coverage gate (coverage-report.ts, run by CI after `npm test`) must fail when one documented
// response or callback shape was not exercised, and pass when all were. It is run as CI runs it, on
// a run directory of records written here.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import type { ConformanceRecord } from "../support/conformance-observer.js";
import { writeRecord } from "../support/conformance-registry.js";
import {
  documentedCallbackShapes,
  documentedResponses,
  EDGE_RESPONSES,
} from "../support/contract-inventory.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "coverage-gate-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the gate on a run directory holding one record per entry of `files`. */
async function gate(files: string[][]): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(join(scratch, "run-"));
  files.forEach((covered, i) => {
    const record: ConformanceRecord = {
      file: `test/f${i}.test.ts`,
      requests: 1,
      invalidRequests: 0,
      callbacks: 0,
      covered,
    };
    writeRecord(dir, record);
  });
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "test/conformance/coverage-report.ts", dir],
      { cwd: root },
    );
    return { code: 0, output: stdout };
  } catch (error) {
    const { code, stdout } = error as { code: number; stdout: string };
    return { code, output: stdout };
  }
}

describe("the contract coverage gate", () => {
  const all = [...documentedResponses(), ...documentedCallbackShapes(), ...Object.values(EDGE_RESPONSES)];

  it("passes when the test files together exercised every documented response, callback shape and edge answer", async () => {
    const half = Math.floor(all.length / 2);
    const { code, output } = await gate([all.slice(0, half), all.slice(half)]);
    expect(output).toContain(`${all.length} of ${all.length}`);
    expect(code).toBe(0);
  });

  it("fails, naming what is missing, when one documented response was not exercised", async () => {
    const [first, ...rest] = all;
    const { code, output } = await gate([rest]);
    expect(output).toContain(`not exercised: ${first}`);
    expect(code).toBe(1);
  });

  it("fails when there are no records at all", async () => {
    const { code, output } = await gate([]);
    expect(output).toContain("no conformance records");
    expect(code).toBe(1);
  });
});
