import type { components as DashboardComponents } from "../../src/generated/dashboard.js";
import type { components as RebuildComponents } from "../../src/generated/rebuild.js";

type DashboardSchemas = DashboardComponents["schemas"];

/**
 * Every way a request can fail in the mock: the contract's error codes (from the generated types),
 * plus CONFLICT, which only the development control API answers.
 */
export type DomainErrorCode =
  | DashboardSchemas["ErrorResponse"]["error"]["code"]
  | DashboardSchemas["ValidationError"]["error"]["code"]
  | RebuildComponents["schemas"]["ErrorResponse"]["error"]["code"]
  | "CONFLICT";

export type FieldErrorType = DashboardSchemas["FieldError"]["type"];

/** One invalid field: `path` dotted (`claims.0.attributes.serverGuid`), `""` for the root, the name for a query parameter. */
export type FieldError = DashboardSchemas["FieldError"];

export interface DomainErrorDetails {
  fieldErrors?: readonly FieldError[];
  /** Whole seconds until a rate-limit slot frees (429 only). */
  retryAfterSeconds?: number;
  /** Methods allowed on the path (405 only). */
  allow?: readonly string[];
}

/**
 * The one error type the domain throws. It carries no HTTP status: mocks/http/error-response.ts is
 * the single place that maps a code to a response.
 */
export class DomainError extends Error {
  override readonly name = "DomainError";
  readonly code: DomainErrorCode;
  readonly details: DomainErrorDetails;

  constructor(code: DomainErrorCode, message: string, details: DomainErrorDetails = {}) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

/**
 * A 400 with its field errors; the message names the first. A problem at the root (path "") is the
 * body's unless `root` says what else was refused (the request line, before any body).
 */
export function validationFailed(fieldErrors: readonly FieldError[], root = "body"): DomainError {
  const first = fieldErrors[0];
  const summary = first ? `${first.path || root}: ${first.message}` : "invalid input";
  return new DomainError("VALIDATION_FAILED", `Validation failed (${summary})`, { fieldErrors });
}
