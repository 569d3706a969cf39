import { isHttpUrl } from "./formats.js";

/** Where the SDK writes diagnostics; `console` works. Nothing is logged without one. */
export interface Logger {
  debug(message: string, ...details: unknown[]): void;
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

/** Options every client accepts. */
export interface CommonClientOptions {
  /** Used instead of `globalThis.fetch` (which is looked up at each request, so mocks installed later apply). */
  fetch?: (request: Request) => Promise<Response>;
  /**
   * Time allowed to each attempt, response body included, in ms. Default 60 000. `Infinity` sets no
   * timeout: the SDK then adds no signal of its own to fetch (the caller's `signal` still applies).
   */
  timeoutMs?: number;
  /** Retries after the first attempt, for errors worth retrying. Default 2; 0 disables retries. */
  maxRetries?: number;
  /**
   * Longest server-requested wait (`Retry-After`, `RateLimit-Reset`) the SDK sleeps through before
   * retrying, in ms. A longer request surfaces the error at once. Default 60 000.
   */
  maxRetryAfterMs?: number;
  /** Receives a debug line per attempt and an info line per retry, secrets redacted. */
  logger?: Logger;
  /** Extra headers for every request. They cannot replace the authentication headers. */
  headers?: Record<string, string>;
  /**
   * Appended to the SDK's own User-Agent (`rebuild-dashboard-kit/0.1.0 <userAgent>`). Browsers do
   * not let a page set User-Agent, so there the SDK sends none and this has no effect.
   */
  userAgent?: string;
}

/** Options of one call, always its optional last argument. */
export interface RequestOptions {
  /** Aborting rejects the call with a DOMException named `AbortError`, also during a retry wait. */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call (each attempt); `Infinity` for none. */
  timeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

/** Strips trailing slashes; anything but an absolute http(s) URL is a TypeError naming the client. */
export function checkBaseUrl(client: string, baseUrl: unknown): string {
  const url = String(baseUrl).replace(/\/+$/, "");
  if (!isHttpUrl(url)) throw new TypeError(`${client}: baseUrl must be an absolute http or https URL`);
  return url;
}

/** `ms` when it is a timeout: above 0, `Infinity` for none. Anything else is a TypeError. */
export function checkTimeoutMs(ms: unknown, prefix = ""): number {
  if (typeof ms !== "number" || !(ms > 0)) {
    throw new TypeError(`${prefix}timeoutMs must be a number of milliseconds above 0, or Infinity for none`);
  }
  return ms;
}

/** Throws a TypeError naming the first numeric option out of range: the constructor's caller erred. */
export function checkNumericOptions(client: string, options: CommonClientOptions): void {
  const { timeoutMs, maxRetries, maxRetryAfterMs } = options;
  if (timeoutMs !== undefined) checkTimeoutMs(timeoutMs, `${client}: `);
  if (maxRetries !== undefined && !(Number.isSafeInteger(maxRetries) && maxRetries >= 0)) {
    throw new TypeError(`${client}: maxRetries must be an integer of 0 or more`);
  }
  if (maxRetryAfterMs !== undefined && !(typeof maxRetryAfterMs === "number" && maxRetryAfterMs >= 0)) {
    throw new TypeError(`${client}: maxRetryAfterMs must be a number of milliseconds, 0 or more`);
  }
}
