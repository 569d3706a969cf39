// The SDK's internal API for the clients (src/dashboard, src/rebuild, the mock's MockControlClient) and
// src/webhooks. Not the package's public entry: src/index.ts re-exports only the part users need.
export { APIPromise } from "./api-promise.js";
export { RateLimitError } from "./errors.js";
export { type CommonClientOptions, checkBaseUrl, checkCredential, type RequestOptions } from "./options.js";
export { paginate } from "./pagination.js";
export { type RateLimitBudget, readBudget } from "./rate-limit.js";
export { createTransport, type InvalidResponseNote, type Transport } from "./transport.js";
