import { type Clock, createClock } from "../../../mocks/domain/clock.js";
import {
  createDashboardDomain,
  type DashboardDomain,
  type DashboardSeed,
  defaultDashboardSeed,
  type Principal,
} from "../../../mocks/domain/dashboard/index.js";
import { DomainError, type DomainErrorCode, type FieldError } from "../../../mocks/domain/errors.js";
import { seededRandom } from "../../../mocks/domain/random.js";

export { SERVER_1, TEAM_A_GUID, TEAM_B_GUID } from "../../support/default-seed.js";

export const T0 = Date.parse("2026-11-22T00:00:00Z");
export const T0_TEXT = "2026-11-22T00:00:00+00:00";

export interface Fixture {
  clock: Clock;
  domain: DashboardDomain;
  /** Authenticates with a seed or created secret. */
  as(secret: string): Principal;
}

export function setup(seed: DashboardSeed = defaultDashboardSeed): Fixture {
  const clock = createClock({ frozenAt: T0 });
  const domain = createDashboardDomain({ clock, random: seededRandom(42), seed });
  return { clock, domain, as: (secret) => domain.authenticate(`Bearer ${secret}`) };
}

export function q(query = ""): URLSearchParams {
  return new URLSearchParams(query);
}

/** The DomainError `run` throws; fails the test when it throws nothing or something else. */
function domainError(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("Expected a DomainError, nothing was thrown");
}

export function expectCode(run: () => unknown, code: DomainErrorCode): DomainError {
  const error = domainError(run);
  if (error.code !== code) throw new Error(`Expected ${code}, got ${error.code}: ${error.message}`);
  return error;
}

/** The `[type, path]` pairs of a VALIDATION_FAILED error, in order. */
export function fieldErrors(run: () => unknown): Array<[FieldError["type"], string]> {
  const error = expectCode(run, "VALIDATION_FAILED");
  return (error.details.fieldErrors ?? []).map((e) => [e.type, e.path]);
}
