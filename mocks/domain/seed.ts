// What a world starts from and `reset` returns to: openapi/mock-control.yaml's `MockSeed`, checked
// with the control API's compiled schema; references and uniqueness are checked as it is loaded.
import type { components } from "../../src/generated/mock-control.js";
import { schemas } from "../../src/generated/mock-control-validators.js";
import { type DashboardSeed, defaultDashboardSeed } from "./dashboard/seed.js";
import type { FieldError } from "./errors.js";
import { defaultRebuildSeed, type RebuildSeed } from "./rebuild/seed.js";
import { schemaProblems } from "./validation/check.js";

/**
 * What a mock world starts from (and `reset` returns to). Either half may be left out for its
 * default, and a half may give any of its lists: each list left out is the default seed's
 * (`defaultDashboardSeed`, `defaultRebuildSeed`). `defineSeed` builds one with ids and references
 * derived.
 */
export type MockSeed = components["schemas"]["MockSeed"];

/** A seed with every list given: what the domains load. */
export interface CompleteSeed {
  dashboard: DashboardSeed;
  rebuild: RebuildSeed;
}

/** `seed` (checked) with every list it leaves out taken from the default seed. */
export function completeSeed(seed: MockSeed): CompleteSeed {
  return {
    dashboard: { ...defaultDashboardSeed, ...seed.dashboard },
    rebuild: { ...defaultRebuildSeed, ...seed.rebuild },
  };
}

/** `seed` once the schema accepts it; otherwise an Error naming every bad value by its JSON path. */
export function checkSeed(seed: unknown): MockSeed {
  const problems = schemaProblems(schemas.MockSeed, seed);
  if (problems.length > 0) throw seedError(problems);
  return seed as MockSeed;
}

/** The Error a bad seed is reported with (a seed is the caller's mistake, not a request's). */
export function seedError(problems: readonly FieldError[]): Error {
  const listed = problems.slice(0, 10).map(({ path, message }) => `${path || "(root)"}: ${message}`);
  const more = problems.length > 10 ? `; and ${problems.length - 10} more` : "";
  return new Error(`Invalid seed: ${listed.join("; ")}${more}`);
}
