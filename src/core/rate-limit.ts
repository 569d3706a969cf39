import { RATE_LIMIT_HEADERS, RETRY_AFTER_HEADER } from "../generated/headers.js";

/**
 * The longest wait a server can ask for (24 hours). Longer ones, absurd ones included
 * (`Retry-After: 99999999999999999999`), are read as this, so no wait and no `resetAt` can overflow.
 */
export const MAX_SERVER_WAIT_MS = 86_400_000;

/** A server-requested wait in ms, clamped to [0, MAX_SERVER_WAIT_MS]: a date in the past is 0. */
const clamp = (ms: number) => Math.min(Math.max(ms, 0), MAX_SERVER_WAIT_MS);

/** The value of `name` when it is a non-negative decimal (`120`, `1.5`) as a number, else undefined. */
function number(headers: Headers, name: string): number | undefined {
  const text = headers.get(name)?.trim() ?? "";
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : undefined;
}

/**
 * The wait a response asks for, in ms: `Retry-After` (delta-seconds or an HTTP-date) on any status,
 * else, on a 429 only, `RateLimit-Reset` (delta-seconds). Elsewhere `RateLimit-Reset` only says
 * when the window's oldest request expires, which is no reason to wait. Undefined when neither
 * applies or the value cannot be read (a negative number, a word); a past date is 0; anything
 * above 24 hours is 24 hours.
 */
export function retryAfterMs(headers: Headers, status: number, now: number): number | undefined {
  const date = headers.get(RETRY_AFTER_HEADER)?.trim() ?? "";
  // Date.parse reads far more than HTTP-dates ("-5" is a year); every HTTP-date ends in GMT.
  const at = Date.parse(/GMT$/.test(date) ? date : "");
  const seconds =
    number(headers, RETRY_AFTER_HEADER) ??
    (Number.isNaN(at)
      ? status === 429
        ? // The third is the window's reset (the generator's order: limit, remaining, reset).
          number(headers, RATE_LIMIT_HEADERS[2])
        : undefined
      : (at - now) / 1000);
  return seconds === undefined ? undefined : clamp(seconds * 1000);
}

/** The rate-limit budget a response announced (`RateLimit-Limit`, `-Remaining`, `-Reset`). */
export interface RateLimitBudget {
  /** Requests allowed in the window. */
  readonly limit: number;
  /** Requests left in the window when the response was sent. */
  readonly remaining: number;
  /** When the oldest counted request leaves the window (then at least one request is free again). */
  readonly resetAt: Date;
}

/** The budget `headers` announce, or undefined unless all three headers are non-negative numbers. */
export function readBudget(headers: Headers, now: number): RateLimitBudget | undefined {
  const [limit, remaining, reset] = RATE_LIMIT_HEADERS.map((name) => number(headers, name));
  return limit === undefined || remaining === undefined || reset === undefined
    ? undefined
    : { limit, remaining, resetAt: new Date(now + clamp(reset * 1000)) };
}
