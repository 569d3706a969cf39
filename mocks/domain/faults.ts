import { documentedFailures } from "../../src/generated/documented-failures.js";
import type { components } from "../../src/generated/mock-control.js";
import { type FieldError, validationFailed } from "./errors.js";
import type { Random } from "./random.js";

/** Fault injection for the public APIs (never the control API, or faults could not be switched off). */
export type FaultSettings = components["schemas"]["FaultSettings"];
/** Settings to change (openapi/mock-control.yaml checks each value). */
type FaultSettingsPatch = components["schemas"]["FaultSettingsPatch"];
/** A scripted fault: the next `times` calls of one operation fail as it says (decisions/044). */
export type FaultRule = components["schemas"]["FaultRule"];

/** What the fault settings made of one request: `none` (served), `error` (an injected failure) or `reset` (dropped). */
export type FaultDecision = "none" | "error" | "reset";

/** No faults: what every world starts from. Frozen, so no world can change it for the others. */
export const NO_FAULTS: Readonly<FaultSettings> = Object.freeze({ latencyMs: 0, errorRate: 0, resetRate: 0 });

/**
 * `current` with `patch` applied (schema-checked), or VALIDATION_FAILED at `errorRate` for the one
 * rule the schema cannot state: a request cannot both fail and reset, so the two rates add up to 1 at most.
 */
export function withFaults(
  current: Readonly<FaultSettings>,
  { rules: _rules, ...patch }: FaultSettingsPatch,
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

/** `500` and `503`: what a `default` response covers that a rule may ask for (an internal error, an injected fault). */
const UNDER_DEFAULT = new Set([500, 503]);

/** The statuses a rule may give for `operationId`: the ones it documents (see `FaultRule`). */
function documentedStatuses(operationId: FaultRule["operationId"]): number[] {
  const documented = documentedFailures[operationId];
  const listed = Object.keys(documented?.statuses ?? {}).map(Number);
  const covered = documented?.default ? [...UNDER_DEFAULT].filter((status) => !listed.includes(status)) : [];
  return [...listed, ...covered].sort((a, b) => a - b);
}

/**
 * `rules` (schema-checked) with `times` filled in, or VALIDATION_FAILED for what the schema cannot
 * state: a rule gives `status`, `reset` or `latencyMs`, not both `status` and `reset`, and a status
 * its operation documents.
 */
export function checkedRules(rules: readonly FaultRule[], path = "rules"): FaultRule[] {
  const problems: FieldError[] = [];
  rules.forEach((rule, index) => {
    const at = `${path}.${index}`;
    if (rule.status === undefined && rule.reset === undefined && rule.latencyMs === undefined) {
      problems.push({
        type: "required",
        path: `${at}.status`,
        message: "is required unless reset or latencyMs is given",
      });
    }
    if (rule.status !== undefined && rule.reset !== undefined) {
      problems.push({
        type: "invalid_value",
        path: `${at}.reset`,
        message: "must not be given together with status",
      });
    }
    if (rule.status !== undefined) {
      const allowed = documentedStatuses(rule.operationId);
      if (!allowed.includes(rule.status)) {
        problems.push({
          type: "invalid_value",
          path: `${at}.status`,
          message: `must be a status ${rule.operationId} documents: ${allowed.join(", ")}`,
        });
      }
    }
  });
  if (problems.length > 0) throw validationFailed(problems);
  return rules.map((rule) => ({ ...rule, times: rule.times ?? 1 }));
}

/**
 * Takes the first pending rule of `operationId` for one call: its `times` goes down by one, and it
 * is removed from `rules` once used up. Undefined when no rule is pending for it.
 */
export function takeRule(rules: FaultRule[], operationId: string): FaultRule | undefined {
  // Asked on every request; almost always there is no rule at all.
  if (rules.length === 0) return undefined;
  const index = rules.findIndex((rule) => rule.operationId === operationId);
  const rule = rules[index];
  if (rule === undefined) return undefined;
  const left = (rule.times ?? 1) - 1;
  if (left > 0) rules[index] = { ...rule, times: left };
  else rules.splice(index, 1);
  return rule;
}

/** What a rule does to its call: an answer of its status (`error`), a dropped connection, or only its latency. */
export function ruleFault(rule: FaultRule): FaultDecision {
  if (rule.reset) return "reset";
  return rule.status === undefined ? "none" : "error";
}
