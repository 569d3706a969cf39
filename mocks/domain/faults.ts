import { type FieldError, validationFailed } from "./errors.js";
import type { Random } from "./random.js";

/** Fault injection for the public APIs (never the control API, or faults could not be switched off). */
export interface FaultSettings {
  /** Added before every answer. */
  latencyMs: number;
  /** Share of requests answered 503 before they reach the domain, so they change nothing. */
  errorRate: number;
  /** Share of requests whose connection is dropped after the domain ran: the answer is lost. */
  resetRate: number;
}

export type FaultDecision = "none" | "error" | "reset";

export const NO_FAULTS: FaultSettings = { latencyMs: 0, errorRate: 0, resetRate: 0 };

const MAX_LATENCY_MS = 60_000;

/** Merges a control-API patch into the settings, or throws 400 with field errors. */
export function patchFaults(current: FaultSettings, patch: unknown): FaultSettings {
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) {
    throw validationFailed([{ type: "invalid_type", path: "", message: "Body must be a JSON object" }]);
  }
  const errors: FieldError[] = [];
  const next = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (key === "latencyMs") {
      if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_LATENCY_MS) {
        errors.push({
          type: "invalid_value",
          path: key,
          message: `must be an integer from 0 to ${MAX_LATENCY_MS}`,
        });
      } else next.latencyMs = value;
    } else if (key === "errorRate" || key === "resetRate") {
      if (typeof value !== "number" || !(value >= 0 && value <= 1)) {
        errors.push({ type: "invalid_value", path: key, message: "must be a number from 0 to 1" });
      } else next[key] = value;
    } else {
      errors.push({ type: "unknown_field", path: key, message: "is not a fault setting" });
    }
  }
  if (next.errorRate + next.resetRate > 1) {
    errors.push({
      type: "invalid_value",
      path: "errorRate",
      message: "errorRate + resetRate must not exceed 1",
    });
  }
  if (errors.length > 0) throw validationFailed(errors);
  return next;
}

export function decideFault(settings: FaultSettings, random: Random): FaultDecision {
  if (settings.errorRate === 0 && settings.resetRate === 0) return "none";
  const bytes = random.bytes(4);
  const roll =
    (((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0)) >>> 0;
  const r = roll / 2 ** 32;
  if (r < settings.errorRate) return "error";
  if (r < settings.errorRate + settings.resetRate) return "reset";
  return "none";
}
