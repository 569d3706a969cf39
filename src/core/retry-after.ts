const DELTA_SECONDS = /^\d+(\.\d+)?$/;

/**
 * The wait a response asks for, in ms: `Retry-After` (delta-seconds or HTTP-date) on any status,
 * else, on a 429 only, `RateLimit-Reset` (delta-seconds). Elsewhere `RateLimit-Reset` only says
 * when the window's oldest request expires, which is no reason to wait. Undefined when neither
 * applies or the value cannot be read.
 */
export function retryAfterMs(headers: Headers, status: number, now: number): number | undefined {
  const retryAfter = headers.get("retry-after")?.trim();
  if (retryAfter) {
    if (DELTA_SECONDS.test(retryAfter)) return Number(retryAfter) * 1000;
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  const reset = headers.get("ratelimit-reset")?.trim();
  if (status === 429 && reset && DELTA_SECONDS.test(reset)) return Number(reset) * 1000;
  return undefined;
}
