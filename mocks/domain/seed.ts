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
interface CompleteSeed {
  dashboard: DashboardSeed;
  rebuild: RebuildSeed;
  /** The lists taken from the default seed, by path (`dashboard.users`). */
  fromDefault: readonly string[];
}

/** `seed` (checked) with every list it leaves out taken from the default seed. */
export function completeSeed(seed: MockSeed): CompleteSeed {
  const leftOut = (half: "dashboard" | "rebuild", lists: readonly string[]) =>
    lists.filter((list) => seed[half]?.[list as never] === undefined).map((list) => `${half}.${list}`);
  return {
    dashboard: { ...defaultDashboardSeed, ...seed.dashboard },
    rebuild: { ...defaultRebuildSeed, ...seed.rebuild },
    fromDefault: [
      ...leftOut("dashboard", Object.keys(defaultDashboardSeed)),
      ...leftOut("rebuild", Object.keys(defaultRebuildSeed)),
    ],
  };
}

/**
 * The problems of loading a completed seed, each one in a list the seed left out saying so: a
 * reference of the default seed's users that no longer holds is not the caller's typo.
 */
export function inDefaultLists(
  problems: readonly FieldError[],
  fromDefault: readonly string[],
): FieldError[] {
  return problems.map((problem) => {
    const list = fromDefault.find((path) => problem.path.startsWith(`${path}.`));
    return list === undefined
      ? problem
      : { ...problem, message: `${problem.message} (${list} is the default seed's: the seed left it out)` };
  });
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
