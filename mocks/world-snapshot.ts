// The whole world as one JSON document: what `--state-file` writes, `GET`/`PUT /__mock/snapshot`
// carry and `world.snapshot()` / `world.restore()` take. See decisions/019.
import { type DashboardSnapshot, readDashboardSnapshot } from "./domain/dashboard/index.js";
import { DomainError } from "./domain/errors.js";
import { type FaultSettings, NO_FAULTS, patchFaults } from "./domain/faults.js";
import type { Random } from "./domain/random.js";
import {
  type CheckedRebuildSnapshot,
  type RebuildSnapshot,
  readRebuildSnapshot,
} from "./domain/rebuild/index.js";
import { readInstant, readRecord } from "./domain/snapshot/snapshot-input.js";
import { EARLIEST_TIME_MS, LATEST_TIME_MS } from "./domain/timestamp.js";
import { FieldErrorList, joinPath } from "./domain/validation/field-errors.js";
import { isJsonObject, jsonType } from "./domain/validation/json-input.js";

/** The snapshot format this version of the mock writes and reads. */
export const SNAPSHOT_VERSION = 1;

/**
 * Everything the mock knows, pending work included, as JSON: a running rebuild's completion and
 * every callback retry come back with their due times. API token secrets are kept only as hashes.
 */
export interface MockWorldSnapshot {
  version: typeof SNAPSHOT_VERSION;
  clock: {
    /** Virtual time when the snapshot was taken, RFC 3339 with milliseconds. */
    now: string;
    /** Virtual minus real time then: a resumed state file keeps it, so time went on while the mock was down. */
    offsetMs: number;
  };
  dashboard: DashboardSnapshot;
  rebuild: RebuildSnapshot;
  faults: FaultSettings;
}

/** A snapshot whose every value was checked, ready to restore. */
export interface CheckedWorldSnapshot {
  now: number;
  offsetMs: number;
  dashboard: DashboardSnapshot;
  rebuild: CheckedRebuildSnapshot;
  faults: FaultSettings;
}

const MAX_OFFSET_MS = LATEST_TIME_MS - EARLIEST_TIME_MS;

/**
 * Checks a snapshot (parsed JSON) and throws VALIDATION_FAILED listing every problem at its dotted
 * path (`rebuild.partners.0.apiKey`); what `PUT /__mock/snapshot` answers 400 with.
 */
export function readWorldSnapshot(
  value: unknown,
  context: { origin: string; random: Random },
): CheckedWorldSnapshot {
  const errors = new FieldErrorList();
  if (!isJsonObject(value)) {
    errors.add("invalid_type", "", `A snapshot is a JSON object, got ${jsonType(value)}`);
    throw errors.toError();
  }
  // Checked first and alone: nothing else can be read reliably in a format this mock does not know.
  if (value.version !== SNAPSHOT_VERSION) {
    if (value.version === undefined)
      errors.add("required", "version", `"version" is required (${SNAPSHOT_VERSION})`);
    else {
      const got = JSON.stringify(value.version) ?? jsonType(value.version);
      errors.add(
        "invalid_value",
        "version",
        `Must be ${SNAPSHOT_VERSION}, the snapshot format of this mock (got ${got})`,
      );
    }
    throw errors.toError();
  }
  const root = readRecord(
    value,
    "",
    { required: ["version", "clock", "dashboard", "rebuild", "faults"] },
    errors,
  );
  if (!root) throw errors.toError();
  const clock = readRecord(root.clock, "clock", { required: ["now", "offsetMs"] }, errors);
  const now = readInstant(clock?.now, "clock.now", errors);
  const offsetMs = clock?.offsetMs;
  if (
    clock &&
    (typeof offsetMs !== "number" || !Number.isFinite(offsetMs) || Math.abs(offsetMs) > MAX_OFFSET_MS)
  ) {
    errors.add("invalid_value", "clock.offsetMs", "Must be a number of milliseconds");
  }
  const dashboard = readDashboardSnapshot(root.dashboard, "dashboard", errors);
  const rebuild = readRebuildSnapshot(root.rebuild, "rebuild", errors, context);
  let faults: FaultSettings | undefined;
  try {
    if (root.faults !== undefined) faults = patchFaults(NO_FAULTS, root.faults);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    for (const e of error.details.fieldErrors ?? []) {
      errors.add(e.type, e.path === "" ? "faults" : joinPath("faults", e.path), e.message);
    }
  }
  errors.throwIfAny();
  if (now === undefined || typeof offsetMs !== "number" || !dashboard || !rebuild || !faults) {
    throw errors.toError();
  }
  return { now, offsetMs, dashboard, rebuild, faults };
}
