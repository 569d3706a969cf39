import { hasUserInfo, isHttpUrl } from "./iri.js";

/** Where the SDK writes diagnostics; `console` works. Nothing is logged without one. */
export interface Logger {
  /** One line per attempt: method, path, outcome and time, with the request's headers (secrets redacted). */
  debug(message: string, ...details: unknown[]): void;
  /** One line per retry: why, which retry of how many, and after how long. */
  info(message: string, ...details: unknown[]): void;
  /** With `validateResponses: "warn"`: a response body that is not what the contract documents (once per kind). */
  warn(message: string, ...details: unknown[]): void;
  /** Not called by the SDK today; there so that `console` and common loggers fit this interface. */
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
  /**
   * Largest response body read, in bytes, counted after decompression as it streams. A larger body
   * stops being read at once and rejects with `ResponseTooLargeError`. Default 4 MiB (4,194,304):
   * a full page of 100 items is a few tens of kB, and 4 MiB is four times the 1 MiB the API accepts
   * as a request body. `Infinity` for no limit.
   */
  maxResponseBytes?: number;
  /** Receives a debug line per attempt and an info line per retry, secrets redacted. */
  logger?: Logger;
  /**
   * What a success body the contract does not describe does: `"strict"` (the default) rejects the
   * call with `ResponseValidationError`. `"warn"` is a stopgap for a contract assumption the real
   * service turns out not to hold, until a release fixes it: each such problem is logged once
   * through `logger.warn` and the call resolves to the body as received (whole: not unwrapped to
   * the method's usual result), so its declared type does not hold.
   */
  validateResponses?: "strict" | "warn";
  /** Extra headers for every request. They cannot replace the authentication headers. */
  headers?: Record<string, string>;
  /**
   * Appended to the SDK's own User-Agent (`rebuild-dashboard-kit/0.1.0 <userAgent>`). Browsers do
   * not let a page set User-Agent, so there the SDK sends none and this has no effect.
   */
  userAgent?: string;
}

/**
 * Options of one call, always its optional last argument. Each is checked like the client's option
 * of the same name: a bad value rejects the call with a TypeError before anything is sent.
 */
export interface RequestOptions {
  /** Aborting rejects the call with a DOMException named `AbortError`, also during a retry wait. */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call (each attempt); `Infinity` for none. */
  timeoutMs?: number;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
  /** Extra headers for this call, over the client's. They cannot replace the authentication headers. */
  headers?: Record<string, string>;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/**
 * Strips trailing slashes. Anything but an absolute http(s) URL, or one with user info (`user:pass@`),
 * a query or a fragment, is a TypeError naming the client and never quoting the URL.
 */
export function checkBaseUrl(client: string, baseUrl: unknown): string {
  const url = String(baseUrl).replace(/\/+$/, "");
  // The one URL check, then what a base URL must not carry: paths are appended to it.
  if (isHttpUrl(url) && !hasUserInfo(url) && /^\w+:\/\/[^/?#]+(\/[^?#]*)?$/.test(url)) return url;
  throw new TypeError(
    `${client}: baseUrl must be an absolute http or https URL without user info, query or fragment`,
  );
}

// What a header value may not contain: control characters (but tab) and anything past Latin-1.
const NOT_IN_HEADER = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * `value` when it is a credential fetch will send exactly as given: a non-empty string without
 * leading or trailing whitespace (fetch would trim it, and the untrimmed value would then escape
 * redaction) and without characters a header cannot carry. Otherwise a TypeError naming the option,
 * never its value.
 */
export function checkCredential(client: string, option: string, value: unknown): string {
  if (typeof value === "string" && value && value.trim() === value && !NOT_IN_HEADER.test(value))
    return value;
  throw new TypeError(`${client}: ${option} must be a non-empty header value without surrounding whitespace`);
}

// The numeric options, each with its range, checked alike for a client and for one call.
const RANGES = {
  timeoutMs: [(n: number) => n > 0, "a number of milliseconds above 0, or Infinity for none"],
  maxRetries: [(n: number) => Number.isSafeInteger(n) && n >= 0, "an integer of 0 or more"],
  maxRetryAfterMs: [(n: number) => n >= 0, "a number of milliseconds, 0 or more"],
  maxResponseBytes: [(n: number) => n >= 1, "a number of bytes, 1 or more, or Infinity"],
} as const;

/** `value` when option `name` may have it; otherwise a TypeError `<prefix><name> must be …`. */
export function checkNumber(name: keyof typeof RANGES, value: unknown, prefix = ""): number {
  const [inRange, rule] = RANGES[name];
  if (typeof value === "number" && inRange(value)) return value;
  throw new TypeError(`${prefix}${name} must be ${rule}`);
}

/** Throws a TypeError naming the first numeric option out of range: the constructor's caller erred. */
export function checkNumericOptions(client: string, options: CommonClientOptions): void {
  for (const name of Object.keys(RANGES) as (keyof typeof RANGES)[]) {
    if (options[name] !== undefined) checkNumber(name, options[name], `${client}: `);
  }
}
