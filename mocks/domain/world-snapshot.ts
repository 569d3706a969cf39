// The whole world as one JSON document: what `--state-file` writes, `GET`/`PUT /__mock/snapshot`
// carry and `world.snapshot()` / `world.restore()` take (decisions/019). Its schema is
// openapi/mock-control.yaml's `MockSnapshot`, compiled with the control API's validators.
import { parseDateTime } from "../../src/core/formats.js";
import type { components } from "../../src/generated/mock-control.js";
import { operations } from "../../src/generated/mock-control-validators.js";
import type { DashboardSnapshot } from "./dashboard/index.js";
import { validationFailed } from "./errors.js";
import { type FaultSettings, withFaults } from "./faults.js";
import type { CheckedRebuildSnapshot, RebuildDomain } from "./rebuild/index.js";
import { schemaProblems } from "./validation/check.js";

/** The snapshot format this version of the mock writes and reads. */
export const SNAPSHOT_VERSION = 1;

/**
 * Everything the mock knows, pending work included, as JSON: a running rebuild's completion and
 * every callback retry come back with their due times. API token secrets are kept only as hashes.
 */
export type MockWorldSnapshot = components["schemas"]["MockSnapshot"];

/** A snapshot whose every value was checked, ready to restore. */
export interface CheckedWorldSnapshot {
  now: number;
  offsetMs: number;
  dashboard: DashboardSnapshot;
  rebuild: CheckedRebuildSnapshot;
  faults: FaultSettings;
}

const validate = operations.restoreMockSnapshot.body?.validate;

/**
 * Checks a snapshot (parsed JSON) and throws VALIDATION_FAILED listing every problem at its dotted
 * path (`rebuild.partners.0.apiKey`): the schema first, then the rules it cannot state (the rebuild
 * half's references and the like; the dashboard half's are checked as it is loaded). A `version` this
 * mock does not know is reported alone: nothing else can be read reliably in a format it does not know.
 */
export function readWorldSnapshot(value: unknown, rebuild: RebuildDomain): CheckedWorldSnapshot {
  if (!validate) throw new Error("the control API's snapshot schema is missing");
  const problems = schemaProblems(validate, value);
  const version = problems.find(({ path }) => path === "version");
  if (version) throw validationFailed([version]);
  if (problems.length > 0) throw validationFailed(problems);
  const snapshot = value as MockWorldSnapshot;
  const checked = rebuild.check(snapshot.rebuild, "rebuild");
  return {
    now: parseDateTime(snapshot.clock.now),
    offsetMs: snapshot.clock.offsetMs,
    dashboard: snapshot.dashboard,
    rebuild: checked,
    faults: withFaults(snapshot.faults, {}, "faults"),
  };
}
