import type { components } from "../../src/generated/mock-control.js";
import { validationFailed } from "./errors.js";
import type { Random } from "./random.js";

/** Fault injection for the public APIs (never the control API, or faults could not be switched off). */
export type FaultSettings = components["schemas"]["FaultSettings"];
/** Settings to change (openapi/mock-control.yaml checks each value). */
export type FaultSettingsPatch = components["schemas"]["FaultSettingsPatch"];

export type FaultDecision = "none" | "error" | "reset";

/** No faults: what every world starts from. Frozen, so no world can change it for the others. */
export const NO_FAULTS: Readonly<FaultSettings> = Object.freeze({ latencyMs: 0, errorRate: 0, resetRate: 0 });

/**
 * `current` with `patch` applied (schema-checked), or VALIDATION_FAILED at `errorRate` for the one
 * rule the schema cannot state: a request cannot both fail and reset, so the two rates add up to 1 at most.
 */
export function withFaults(
  current: Readonly<FaultSettings>,
  patch: FaultSettingsPatch,
  path = "",
): FaultSettings {
  const next = { ...current, ...patch };
  if (next.errorRate + next.resetRate > 1) {
    throw validationFailed([
      {
        type: "invalid_value",
        path: path === "" ? "errorRate" : `${path}.errorRate`,
        message: "must not exceed 1 together with resetRate",
      },
    ]);
  }
  return next;
}

export function decideFault(settings: Readonly<FaultSettings>, random: Random): FaultDecision {
  if (settings.errorRate === 0 && settings.resetRate === 0) return "none";
  const bytes = random.bytes(4);
  const roll =
    (((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0)) >>> 0;
  const r = roll / 2 ** 32;
  if (r < settings.errorRate) return "error";
  if (r < settings.errorRate + settings.resetRate) return "reset";
  return "none";
}
