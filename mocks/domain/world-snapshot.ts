// The whole world as one JSON document: what `--state-file` writes, `GET`/`PUT /__mock/snapshot`
// carry and `world.snapshot()` / `world.restore()` take (decisions/019). Its schema is
// openapi/mock-control.yaml's `MockSnapshot`, compiled with the control API's validators.
import { parseDateTime } from "../../src/core/formats.js";
import type { components } from "../../src/generated/mock-control.js";
import { operations } from "../../src/generated/mock-control-validators.js";
import type { DashboardDomain, DashboardStores } from "./dashboard/index.js";
import { DomainError, type FieldError, validationFailed } from "./errors.js";
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
  dashboard: DashboardStores;
  rebuild: CheckedRebuildSnapshot;
  faults: FaultSettings;
}

const validate = operations.restoreMockSnapshot.body?.validate;

/**
 * Checks a snapshot (parsed JSON) and throws VALIDATION_FAILED listing every problem at its dotted
 * path (`rebuild.partners.0.apiKey`): the schema first, then, in one error, the rules it cannot state
 * (each half's references and keys given twice, the faults' sum). A `version` this mock does not know
 * is reported alone: nothing else can be read reliably in a format it does not know. Changes nothing.
 */
export function readWorldSnapshot(
  value: unknown,
  halves: { dashboard: Pick<DashboardDomain, "check">; rebuild: Pick<RebuildDomain, "check"> },
): CheckedWorldSnapshot {
  if (!validate) throw new Error("the control API's snapshot schema is missing");
  const problems = schemaProblems(validate, value);
  const version = problems.find(({ path }) => path === "version");
  if (version) throw validationFailed([version]);
  if (problems.length > 0) throw validationFailed(problems);
  const snapshot = value as MockWorldSnapshot;
  const dashboard = collecting(problems, () => halves.dashboard.check(snapshot.dashboard, "dashboard"));
  const rebuild = collecting(problems, () => halves.rebuild.check(snapshot.rebuild, "rebuild"));
  const faults = collecting(problems, () => withFaults(snapshot.faults, {}, "faults"));
  if (!dashboard || !rebuild || !faults) throw validationFailed(problems);
  return {
    now: parseDateTime(snapshot.clock.now),
    offsetMs: snapshot.clock.offsetMs,
    dashboard,
    rebuild,
    faults,
  };
}

/** What `check` gives, or undefined with its field errors added to `problems`. */
function collecting<T>(problems: FieldError[], check: () => T): T | undefined {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== "VALIDATION_FAILED") throw error;
    problems.push(...(error.details.fieldErrors ?? []));
    return undefined;
  }
}
