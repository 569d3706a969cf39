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

export const T0 = Date.parse("2026-11-22T00:00:00Z");
export const T0_TEXT = "2026-11-22T00:00:00+00:00";
export const SERVER_1 = "5b1c3f0e-2a4d-4c6b-8e9f-0a1b2c3d4e01";
export const TEAM_A_GUID = "3f2a7c1e-8b4d-4e6f-9a1b-2c3d4e5f6a7b";
export const TEAM_B_GUID = "9d8c7b6a-5e4f-4a3b-8c2d-1e0f9a8b7c6d";

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
export function domainError(run: () => unknown): DomainError {
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
