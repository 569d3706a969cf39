// The SDK's internal API for the clients (src/dashboard, src/rebuild) and src/webhooks. Not the
// package's public entry: src/index.ts re-exports only the part users need.
export { APIPromise, type WithResponse } from "./api-promise.js";
export {
  ApiError,
  type ApiErrorInit,
  AuthenticationError,
  abortError,
  ConnectionError,
  createApiError,
  type ErrorCode,
  type FieldError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseTooLargeError,
  ResponseValidationError,
  SdkError,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
} from "./errors.js";
export { type CommonClientOptions, checkCredential, type Logger, type RequestOptions } from "./options.js";
export { DEFAULT_PAGE_SIZE, type FetchPage, type Page, paginate } from "./pagination.js";
export { type RateLimitBudget, readBudget } from "./rate-limit.js";
export { REDACTED, redact, redactHeaders, sanitizeError } from "./redact.js";
export {
  type AttemptClient,
  createTransport,
  type DataOf,
  type FetchResult,
  type InvalidResponseNote,
  type RetryPolicy,
  type Transport,
  type TransportHooks,
  type TransportOptions,
} from "./transport.js";
export { SDK_USER_AGENT, VERSION } from "./version.js";
