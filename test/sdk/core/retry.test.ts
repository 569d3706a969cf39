import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ApiError,
  ConnectionError,
  InternalServerError,
  RateLimitError,
  TimeoutError,
  ValidationError,
} from "../../../src/core/errors.js";
import type { RetryPolicy } from "../../../src/core/transport.js";
import { errorBody, json, NOW, netError, type Step, settleWithTimers, setup, times } from "./helpers.js";

afterEach(() => {
  vi.useRealTimers();
});

type Failure = "refused" | "dns" | "dns-again" | "reset" | "timeout" | 408 | 429 | 500 | 503 | 400;

const failureStep: Record<Failure, Step> = {
  refused: netError("ECONNREFUSED"),
  dns: netError("ENOTFOUND"),
  "dns-again": netError("EAI_AGAIN"),
  reset: netError("ECONNRESET"),
  timeout: "hang",
  408: () => json(408, errorBody("REQUEST_TIMEOUT")),
  429: () => json(429, errorBody("RATE_LIMIT_EXCEEDED")),
  500: () => json(500, errorBody("INTERNAL")),
  503: () => json(503, errorBody("UNAVAILABLE")),
  400: () => json(400, errorBody("VALIDATION_FAILED")),
};

const expectedError: Record<Failure, new (...args: never[]) => Error> = {
  refused: ConnectionError,
  dns: ConnectionError,
  "dns-again": ConnectionError,
  reset: ConnectionError,
  timeout: TimeoutError,
  408: ApiError,
  429: RateLimitError,
  500: InternalServerError,
  503: InternalServerError,
  400: ValidationError,
};

// [policy, failure, retried?]
const matrix: [RetryPolicy, Failure, boolean][] = [
  ["safe", "refused", true],
  ["safe", "dns", true],
  ["safe", "reset", true],
  ["safe", "timeout", true],
  ["safe", 408, true],
  ["safe", 429, true],
  ["safe", 500, true],
  ["safe", 503, true],
  ["safe", 400, false],
  ["unsafe", "refused", true],
  ["unsafe", "dns", true],
  ["unsafe", "dns-again", true],
  ["unsafe", "reset", false],
  ["unsafe", "timeout", false],
  ["unsafe", 408, false],
  ["unsafe", 429, false],
  ["unsafe", 500, false],
  ["unsafe", 503, false],
  ["unsafe", 400, false],
];

describe("retry matrix", () => {
  it.each(matrix)("%s × %s: retried %s", async (policy, failure, retried) => {
    if (failure === "timeout") vi.useFakeTimers();
    const { list, create, fetch } = setup(times(3, failureStep[failure]), { timeoutMs: 5000 });
    const call: Promise<unknown> = policy === "safe" ? list() : create();
    const error = await settleWithTimers(call).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(expectedError[failure]);
    expect(fetch).toHaveBeenCalledTimes(retried ? 3 : 1);
  });

  it.each(matrix.filter(([, , retried]) => retried))(
    "%s × %s: succeeds on a later attempt",
    async (policy, failure) => {
      if (failure === "timeout") vi.useFakeTimers();
      const created = () => json(201, { data: { id: 1, name: "x", token: "t" } });
      const listed = () => json(200, { totalCount: 0, data: [] });
      const { list, create, fetch } = setup([failureStep[failure], policy === "safe" ? listed : created]);
      const call: Promise<unknown> = policy === "safe" ? list() : create();
      const result = await settleWithTimers(call);
      expect(result).toBeDefined();
      expect(fetch).toHaveBeenCalledTimes(2);
    },
  );

  it("the last error surfaces when retries are exhausted", async () => {
    const { list, fetch } = setup([() => json(500, errorBody("INTERNAL", "first")), netError("ECONNRESET")], {
      maxRetries: 1,
    });
    await expect(list()).rejects.toThrow("GET https://api.test/v1/items failed: ECONNRESET");
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("maxRetries: 0 disables retries", async () => {
    const { list, fetch } = setup(times(3, failureStep[500]), { maxRetries: 0 });
    await expect(list()).rejects.toBeInstanceOf(InternalServerError);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("a request that failed before reaching fetch is not retried and surfaces as is", async () => {
    const { t, fetch } = setup([]);
    const bad = t("safe", undefined, (http, init) =>
      http.POST("/items", { ...init, body: { name: 1n as unknown as string } }),
    );
    await expect(bad).rejects.toBeInstanceOf(TypeError);
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe("server-requested waits", () => {
  it.each([
    ["Retry-After seconds", 429, { "retry-after": "12" }, 12_000],
    ["Retry-After above the 8 s backoff cap", 429, { "retry-after": "45" }, 45_000],
    ["Retry-After fractional seconds", 503, { "retry-after": "1.5" }, 1_500],
    ["Retry-After zero", 429, { "retry-after": "0" }, 0],
    ["Retry-After HTTP-date", 503, { "retry-after": new Date(NOW + 30_000).toUTCString() }, 30_000],
    ["Retry-After HTTP-date in the past", 429, { "retry-after": new Date(NOW - 5_000).toUTCString() }, 0],
    ["RateLimit-Reset when Retry-After is absent", 429, { "ratelimit-reset": "7" }, 7_000],
    ["Retry-After before RateLimit-Reset", 429, { "retry-after": "3", "ratelimit-reset": "7" }, 3_000],
    ["RateLimit-Reset ignored on a 5xx", 503, { "ratelimit-reset": "3000" }, 250],
    ["unreadable Retry-After falls back to backoff", 429, { "retry-after": "later" }, 250],
  ])("%s", async (_, status, headers, wait) => {
    const { list, waits } = setup([
      () => json(status, errorBody("X"), headers),
      () => json(200, { totalCount: 0, data: [] }),
    ]);
    await list();
    expect(waits).toEqual([wait]);
  });

  it.each([
    ["Retry-After", 429, { "retry-after": "61" }, RateLimitError],
    [
      "Retry-After HTTP-date",
      429,
      { "retry-after": new Date(NOW + 3_600_000).toUTCString() },
      RateLimitError,
    ],
    ["RateLimit-Reset", 429, { "ratelimit-reset": "1800" }, RateLimitError],
    ["Retry-After on a 503", 503, { "retry-after": "120" }, InternalServerError],
  ])("a wait above maxRetryAfterMs (%s) surfaces at once", async (_, status, headers, Class) => {
    const { list, fetch, waits } = setup(times(3, () => json(status, errorBody("X"), headers)));
    const error = await list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Class);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(waits).toEqual([]);
  });

  it("a surfaced RateLimitError tells when to come back", async () => {
    const { list } = setup([() => json(429, errorBody("RATE_LIMIT_EXCEEDED"), { "retry-after": "600" })]);
    const error = (await list().catch((e: unknown) => e)) as RateLimitError;
    expect(error.retryAfterMs).toBe(600_000);
    expect(error.resetAt).toEqual(new Date(NOW + 600_000));
  });

  it("maxRetryAfterMs is configurable", async () => {
    const step = () => json(429, errorBody("RATE_LIMIT_EXCEEDED"), { "retry-after": "10" });
    const low = setup(times(3, step), { maxRetryAfterMs: 9_999 });
    await expect(low.list()).rejects.toBeInstanceOf(RateLimitError);
    expect(low.fetch).toHaveBeenCalledTimes(1);
    const high = setup(times(3, step), { maxRetryAfterMs: 10_000 });
    await expect(high.list()).rejects.toBeInstanceOf(RateLimitError);
    expect(high.fetch).toHaveBeenCalledTimes(3);
    expect(high.waits).toEqual([10_000, 10_000]);
  });
});

describe("backoff", () => {
  it("doubles from 0.5 s up to an 8 s cap, scaled by the jitter", async () => {
    const { list, waits } = setup(
      times(8, failureStep[500]),
      { maxRetries: 7 },
      { random: () => 1 - 2 ** -53 },
    );
    await expect(list()).rejects.toBeInstanceOf(InternalServerError);
    expect(waits.map(Math.round)).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it("is full jitter: uniform in [0, min(8 s, 0.5 s · 2^n))", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), {
          minLength: 6,
          maxLength: 6,
        }),
        async (draws) => {
          const queue = [...draws];
          const { list, waits } = setup(
            times(7, failureStep[503]),
            { maxRetries: 6 },
            { random: () => queue.shift() ?? 0 },
          );
          await list().catch(() => {});
          waits.forEach((wait, n) => {
            const ceiling = Math.min(8000, 500 * 2 ** n);
            expect(wait).toBeGreaterThanOrEqual(0);
            expect(wait).toBeLessThan(ceiling);
            expect(wait).toBe((draws[n] ?? 0) * ceiling);
          });
          expect(waits).toHaveLength(6);
        },
      ),
      { numRuns: 50 },
    );
  });

  it("random 0 retries at once", async () => {
    const { list, waits } = setup(times(3, failureStep[500]), {}, { random: () => 0 });
    await expect(list()).rejects.toBeInstanceOf(InternalServerError);
    expect(waits).toEqual([0, 0]);
  });
});
