import type { components as DashboardComponents } from "../generated/dashboard.js";
import type { components as RebuildComponents } from "../generated/rebuild.js";
import { retryAfterMs } from "./rate-limit.js";
import { redact, redactHeaders } from "./redact.js";

/** Base of every error the SDK throws (a caller's own abort excepted: that is a DOMException). */
export class SdkError extends Error {
  override readonly name: string = "SdkError";
}

/** Error codes of the contract (from the generated types); other strings may appear. */
export type ErrorCode =
  | DashboardComponents["schemas"]["ErrorResponse"]["error"]["code"]
  | DashboardComponents["schemas"]["ValidationError"]["error"]["code"]
  | RebuildComponents["schemas"]["ErrorResponse"]["error"]["code"]
  | (string & {});

/** One invalid input field; `path` is dotted (`claims.0.attributes.serverGuid`, `""` for the body). */
export interface FieldError {
  readonly type: string;
  readonly path: string;
  readonly message: string;
}

/** What an `ApiError` is made from (the SDK makes them; a test may too, to stand for an answer). */
export interface ApiErrorInit {
  /** The HTTP status answered. */
  readonly status: number;
  /** The body's `error.code`, when it has one. */
  readonly code?: ErrorCode | undefined;
  /** One entry per invalid field (default none). */
  readonly fieldErrors?: readonly FieldError[];
  /** The response's headers (default none). */
  readonly headers?: Headers;
}

/** The server answered with a status outside 2xx. */
export class ApiError extends SdkError {
  override readonly name: string = "ApiError";
  declare readonly status: number;
  /** `error.code` of the body; undefined when the body has none (or is not JSON). */
  declare readonly code: ErrorCode | undefined;
  /** One entry per invalid field (400), the body's first 100 at most; empty otherwise. */
  declare readonly fieldErrors: readonly FieldError[];
  /** The response's headers, `set-cookie` redacted. */
  declare readonly headers: Headers;

  /** An error with `message` for the answer `init` describes; every subclass takes the same arguments. */
  constructor(message: string, init: ApiErrorInit) {
    super(message);
    Object.assign(this, { fieldErrors: [], headers: new Headers() }, init);
  }
}

/** 400: the input is invalid; see `fieldErrors`. */
export class ValidationError extends ApiError {
  override readonly name: string = "ValidationError";
}

/** 401: the credentials are missing, wrong, expired or deleted. */
export class AuthenticationError extends ApiError {
  override readonly name: string = "AuthenticationError";
}

/** 403: the credentials may not do this; `code` is `FEATURE_NOT_ENABLED` when a feature flag is off. */
export class PermissionDeniedError extends ApiError {
  override readonly name: string = "PermissionDeniedError";
}

/** 404. */
export class NotFoundError extends ApiError {
  override readonly name: string = "NotFoundError";
}

/** 422: well-formed but refused, such as `WEBHOOKS_NOT_CONFIGURED`. */
export class UnprocessableEntityError extends ApiError {
  override readonly name: string = "UnprocessableEntityError";
}

/** 429. */
export class RateLimitError extends ApiError {
  override readonly name: string = "RateLimitError";
  /**
   * How long the server asked to wait (`Retry-After`, else `RateLimit-Reset`), not capped by
   * `maxRetryAfterMs` but read as at most 24 hours; 0 when the response says neither.
   */
  declare readonly retryAfterMs: number;
  /** When a request may be made again. */
  declare readonly resetAt: Date;

  /** As `ApiError`'s, `init` also giving `retryAfterMs` and `resetAt`. */
  // Only types `init`: ApiError's constructor copies its fields.
  constructor(
    message: string,
    init: ApiErrorInit & { readonly retryAfterMs: number; readonly resetAt: Date },
  ) {
    super(message, init);
  }
}

/** 5xx. */
export class InternalServerError extends ApiError {
  override readonly name: string = "InternalServerError";
}

/** No response was received: refused, DNS failure, reset, TLS failure, … See `cause`. */
export class ConnectionError extends SdkError {
  override readonly name: string = "ConnectionError";
}

/** An attempt took longer than `timeoutMs`. */
export class TimeoutError extends ConnectionError {
  override readonly name: string = "TimeoutError";
}

/** What identifies the response an SDK error is about: never a secret, never a query string. */
export interface ResponseErrorInit {
  /** The HTTP status answered. */
  readonly status: number;
  /** The request's method. */
  readonly method: string;
  /** The request path, e.g. `/v1/si/servers`, without the query string. */
  readonly path: string;
}

/**
 * A success response whose body is not what the contract documents: not JSON, empty where a body is
 * documented, a required field missing or a field of the wrong JSON type. Never retried (the server
 * may have acted). Unknown extra fields and unknown enum strings are not errors: the API may grow.
 */
export class ResponseValidationError extends SdkError {
  override readonly name: string = "ResponseValidationError";
  declare readonly status: number;
  declare readonly method: string;
  declare readonly path: string;
  /** Where the first problem is: `$` for the body itself, else e.g. `$.data[0].guid`. */
  declare readonly jsonPath: string;
  /**
   * `apiTokens.create` only: the id of the token the server may have created (its secret is lost;
   * delete it and create another), when the body held one.
   */
  declare readonly tokenId?: number;
  /**
   * Whether the contract element the problem is in is an assumption (`x-assumed` in `openapi/`: the
   * provider's documents do not state it) rather than confirmed by them. An assumption may simply be
   * wrong about the real service: `npx rebuild-dashboard-kit verify` checks them all.
   */
  declare readonly assumed: boolean;
  /**
   * The JSON pointer, in the client's document (`openapi/dashboard.yaml` or `openapi/rebuild.yaml`),
   * of that assumed element; for a confirmed one, of the response whose body it is (`jsonPath` says
   * where in it). Undefined when no response is documented.
   */
  declare readonly pointer?: string;

  /**
   * An error with `message` about the response `init` describes: where in the body (`jsonPath`,
   * `pointer` in the contract) and whether the contract's rule there is assumed (the message then
   * suggests `verify`).
   */
  constructor(
    message: string,
    init: ResponseErrorInit & {
      jsonPath: string;
      tokenId?: number | undefined;
      assumed: boolean;
      pointer?: string;
    },
  ) {
    super(
      init.pointer
        ? `${message} (${init.assumed ? "assumed" : "confirmed"} at ${init.pointer}; run \`npx rebuild-dashboard-kit verify\` to check the contract's assumptions)`
        : message,
    );
    Object.assign(this, init);
  }
}

/**
 * A response body grew past `maxResponseBytes` (counted after decompression): reading stopped
 * there and the connection was dropped. Never retried.
 */
export class ResponseTooLargeError extends SdkError {
  override readonly name: string = "ResponseTooLargeError";
  declare readonly status: number;
  declare readonly method: string;
  declare readonly path: string;
  /** The limit that was crossed. */
  declare readonly maxResponseBytes: number;

  /** An error with `message` about the response `init` describes, whose body passed `maxResponseBytes`. */
  constructor(message: string, init: ResponseErrorInit & { maxResponseBytes: number }) {
    super(message);
    Object.assign(this, init);
  }
}

/** What a caller's own abort rejects with: a DOMException named `AbortError`, as fetch does. */
export function abortError(): DOMException {
  return new DOMException("This operation was aborted", "AbortError");
}

export interface ErrorContext {
  /** `METHOD /path`, without the query string. */
  readonly label: string;
  readonly secrets?: readonly string[];
  /** Epoch ms the response arrived; resolves an HTTP-date `Retry-After`. */
  readonly now?: number;
}

const MAX_FIELD_ERRORS_IN_MESSAGE = 5;
/** Most field errors an ApiError keeps (`fieldErrors`); the body's later ones are dropped. */
export const MAX_FIELD_ERRORS = 100;
/** Most characters an ApiError keeps of each string of the body (cut ones end in `…`). */
export const MAX_ERROR_TEXT_CHARS = 1000;

const CLASS_BY_STATUS: Readonly<Record<number, typeof ApiError>> = {
  400: ValidationError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  422: UnprocessableEntityError,
};

type Loose<T> = { readonly [K in keyof T]?: unknown } | null | undefined;

/**
 * The one factory from a non-2xx response (and its body: parsed JSON, text, or undefined) to the
 * typed error. The class follows the status alone, so a body that is not the contract's envelope
 * still gives the right class, with a message built from the status. Strings taken from the
 * response are redacted of `secrets`, since a server may echo what it was sent. Whatever the body,
 * the work is linear and the error small: at most `MAX_FIELD_ERRORS` (100) field errors are kept,
 * each string of the body is cut to `MAX_ERROR_TEXT_CHARS` (1,000) characters before it is
 * redacted, and the message names at most 5 field errors.
 */
export function createApiError(response: Response, body: unknown, context: ErrorContext): ApiError {
  const { status } = response;
  const { label, secrets = [], now = Date.now() } = context;
  // Cut, then redacted: a secret cut short is still hidden when 8 characters of it remain.
  const clean = (text: string) =>
    text.length > MAX_ERROR_TEXT_CHARS
      ? `${redact(text.slice(0, MAX_ERROR_TEXT_CHARS), secrets)}…`
      : redact(text, secrets);
  // Object() makes any body (text, null, a number) safe to read properties from.
  const envelope: { message?: unknown; error?: Loose<{ code: string }>; errors?: unknown } = Object(body);
  const code = typeof envelope.error?.code === "string" ? clean(envelope.error.code) : undefined;
  const fieldErrors: FieldError[] = [];
  for (const e of (Array.isArray(envelope.errors) ? envelope.errors : []) as Loose<FieldError>[]) {
    if (fieldErrors.length === MAX_FIELD_ERRORS) break;
    if (typeof e?.type === "string" && typeof e.path === "string" && typeof e.message === "string")
      fieldErrors.push({ type: clean(e.type), path: clean(e.path), message: clean(e.message) });
  }
  const detail = clean(typeof envelope.message === "string" ? envelope.message : response.statusText);
  // A server's message may already name field errors (the mock's names the first one): each is
  // listed once, so only the ones the message does not mention are added.
  const unmentioned = fieldErrors
    .map((e) => `${e.path || "body"}: ${e.message}`)
    .filter((text) => !detail.includes(text));
  const listed = unmentioned.slice(0, MAX_FIELD_ERRORS_IN_MESSAGE);
  const more = unmentioned[MAX_FIELD_ERRORS_IN_MESSAGE] ? "; …" : "";
  const message = redact(
    `${label} failed with ${status}${code ? ` ${code}` : ""}${detail ? `: ${detail}` : ""}${listed.length ? ` (${listed.join("; ")}${more})` : ""}`,
    secrets,
  );
  const init = { status, code, fieldErrors, headers: redactHeaders(response.headers, secrets) };
  if (status === 429) {
    const waitMs = retryAfterMs(response.headers, status, now) ?? 0;
    return new RateLimitError(message, { ...init, retryAfterMs: waitMs, resetAt: new Date(now + waitMs) });
  }
  return new (status >= 500 ? InternalServerError : (CLASS_BY_STATUS[status] ?? ApiError))(message, init);
}
