// The whole world as one JSON document: what `--state-file` writes, `GET`/`PUT /__mock/snapshot`
// carry and `world.snapshot()` / `world.restore()` take (decisions/019). Its schema is
// openapi/mock-control.yaml's `MockSnapshot`, compiled with the control API's validators, which check
// a snapshot before it gets here (the route's, or the world's restore method's: decisions/050).
import { parseDateTime } from "../../src/core/formats.js";
import type { components } from "../../src/generated/mock-control.js";
import type { DashboardDomain, DashboardStores } from "./dashboard/index.js";
import { DomainError, type FieldError, validationFailed } from "./errors.js";
import { type FaultSettings, withFaults } from "./faults.js";
import type { CheckedRebuildSnapshot, RebuildDomain } from "./rebuild/index.js";

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

/**
 * Reads a snapshot its schema accepted and throws VALIDATION_FAILED listing, in one error, every
 * break of the rules the schema cannot state (each half's references and keys given twice, the
 * faults' sum) at its dotted path (`rebuild.partners.0.apiKey`). Changes nothing.
 */
export function readWorldSnapshot(
  snapshot: MockWorldSnapshot,
  halves: { dashboard: Pick<DashboardDomain, "check">; rebuild: Pick<RebuildDomain, "check"> },
): CheckedWorldSnapshot {
  const problems: FieldError[] = [];
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
