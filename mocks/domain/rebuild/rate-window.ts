import type { Clock } from "../clock.js";
import { DomainError } from "../errors.js";

const RATE_WINDOW_MS = 60 * 60 * 1000;

/** What the RateLimit-* response headers say. */
export interface RateLimitState {
  /** Requests allowed per sliding hour (`RateLimit-Limit`). */
  limit: number;
  /** Requests left in the window now (`RateLimit-Remaining`). */
  remaining: number;
  /** Whole seconds, rounded up, until the oldest counted request leaves the window; 0 when none is counted (`RateLimit-Reset`). */
  resetSeconds: number;
}

/** How much of the window is used (`GET /__mock/state`, the console's "N of 30 used, next slot in …"). */
interface RateLimitUsage {
  used: number;
  limit: number;
  /** Epoch ms when a request will be admitted again (what `Retry-After` says), or null: one would be now. */
  nextSlotAt: number | null;
}

export interface RateWindows {
  /** Counts one request, or throws RATE_LIMIT_EXCEEDED (with `retryAfterSeconds`) without counting it. */
  admit(key: number, limit: number): RateLimitState;
  /** The state without counting anything. */
  state(key: number, limit: number): RateLimitState;
  /** How much of the window is used now, without counting anything. */
  usage(key: number, limit: number): RateLimitUsage;
  /** Admission times still in each window, oldest first (for snapshots). */
  times(): Map<number, number[]>;
  clear(): void;
  /** Replaces every window with the given admission times (oldest first). */
  restore(times: ReadonlyMap<number, readonly number[]>): void;
}

interface Window {
  /** Admission times, oldest first; entries before `head` have left the window. */
  times: number[];
  head: number;
}

// Compacting only once the dead prefix outweighs the live part keeps pruning amortised O(1).
const COMPACT_AFTER = 64;

/**
 * One sliding window per key. Only admitted requests are stored, so a window never holds more
 * than the largest limit it has been given, and pruning drops whatever has left the hour.
 */
export function createRateWindows(clock: Clock, windowMs = RATE_WINDOW_MS): RateWindows {
  const windows = new Map<number, Window>();

  const live = (key: number, now: number): Window => {
    let window = windows.get(key);
    if (!window) {
      window = { times: [], head: 0 };
      windows.set(key, window);
    }
    while (window.head < window.times.length && (window.times[window.head] ?? now) + windowMs <= now) {
      window.head++;
    }
    if (window.head > COMPACT_AFTER && window.head * 2 > window.times.length) {
      window.times = window.times.slice(window.head);
      window.head = 0;
    }
    return window;
  };

  const secondsUntilLeaves = (time: number | undefined, now: number) =>
    time === undefined ? 0 : Math.ceil((time + windowMs - now) / 1000);

  const describe = (window: Window, limit: number, now: number): RateLimitState => {
    const count = window.times.length - window.head;
    return {
      limit,
      remaining: Math.max(0, limit - count),
      resetSeconds: secondsUntilLeaves(window.times[window.head], now),
    };
  };

  /** Whole seconds until a request is admitted; undefined when one would be now. */
  const waitSeconds = (window: Window, limit: number, now: number): number | undefined => {
    const count = window.times.length - window.head;
    // A slot frees once enough of the oldest requests leave that fewer than `limit` remain (more
    // than one when the limit was lowered after they were counted).
    return count < limit ? undefined : secondsUntilLeaves(window.times[window.head + count - limit], now);
  };

  return {
    admit(key, limit) {
      const now = clock.now();
      const window = live(key, now);
      const retryAfterSeconds = waitSeconds(window, limit, now);
      if (retryAfterSeconds !== undefined) {
        throw new DomainError(
          "RATE_LIMIT_EXCEEDED",
          `Rate limit of ${limit} requests per hour exceeded; retry in ${retryAfterSeconds} s`,
          { retryAfterSeconds },
        );
      }
      window.times.push(now);
      return describe(window, limit, now);
    },
    state(key, limit) {
      const now = clock.now();
      return describe(live(key, now), limit, now);
    },
    usage(key, limit) {
      if (!windows.has(key)) return { used: 0, limit, nextSlotAt: null };
      const now = clock.now();
      const window = live(key, now);
      const wait = waitSeconds(window, limit, now);
      return {
        used: window.times.length - window.head,
        limit,
        nextSlotAt: wait === undefined ? null : now + wait * 1000,
      };
    },
    times() {
      const now = clock.now();
      const out = new Map<number, number[]>();
      for (const key of windows.keys()) {
        const window = live(key, now);
        if (window.head < window.times.length) out.set(key, window.times.slice(window.head));
      }
      return out;
    },
    clear() {
      windows.clear();
    },
    restore(times) {
      windows.clear();
      for (const [key, list] of times) windows.set(key, { times: [...list], head: 0 });
    },
  };
}
