/** Every way a request can fail in the mock, as the contract's error codes. */
export type DomainErrorCode =
  | "VALIDATION_FAILED"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "FEATURE_NOT_ENABLED"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "WEBHOOKS_NOT_CONFIGURED"
  | "CONFLICT"
  | "RATE_LIMIT_EXCEEDED"
  | "INTERNAL";

export type FieldErrorType =
  | "required"
  | "invalid_type"
  | "invalid_format"
  | "invalid_value"
  | "too_small"
  | "too_big"
  | "unknown_field"
  | "duplicate";

export interface FieldError {
  type: FieldErrorType;
  /** Dotted path (`claims.0.attributes.serverGuid`), `""` for the root, the name for a query parameter. */
  path: string;
  message: string;
}

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

export function validationFailed(fieldErrors: readonly FieldError[]): DomainError {
  const first = fieldErrors[0];
  const summary = first ? `${first.path || "body"}: ${first.message}` : "invalid input";
  return new DomainError("VALIDATION_FAILED", `Validation failed (${summary})`, { fieldErrors });
}
