// Absurd rate-limit headers never turn into an Invalid Date or a negative wait: unreadable values
// are ignored, a date in the past is 0, anything above 24 hours is 24 hours. RebuildClient keeps
// the last budget any response announced and, when asked to, refuses to send while it is spent.
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_SERVER_WAIT_MS, readBudget, retryAfterMs } from "../../../src/core/rate-limit.js";
import { RateLimitError } from "../../../src/index.js";
import { misbehaving, rejection, reply } from "./server.js";

const NOW = Date.UTC(2026, 10, 22, 2, 39, 49);
const DAY = MAX_SERVER_WAIT_MS;
const limited = { message: "slow down", error: { code: "RATE_LIMIT_EXCEEDED" } };
const running = { requestId: "req_1", projectId: "prj_1", status: "running" };

afterEach(() => {
  vi.useRealTimers();
});

// [Retry-After, RateLimit-Reset, the wait read (ms), or undefined when there is none]
const cases: [string, string | undefined, number | undefined][] = [
  ["99999999999999999999999", undefined, DAY],
  [`${"9".repeat(400)}.5`, undefined, DAY],
  ["0.25", undefined, 250],
  ["1.5", undefined, 1500],
  ["-5", undefined, undefined],
  ["-5", "7", 7000],
  ["1e400", undefined, undefined],
  ["NaN", undefined, undefined],
  ["Infinity", undefined, undefined],
  ["soon", "99999999999999999999", DAY],
  ["", "-1", undefined],
  ["Wed, 21 Oct 2015 07:28:00 GMT", undefined, 0],
  [new Date(NOW + 90_000).toUTCString(), "7", 90_000],
  ["Sat, 01 Jan 275760 00:00:00 GMT", undefined, DAY],
  ["Mon, 99 Foo 2026 99:99:99 GMT", "3", 3000],
  ["2026", undefined, 2_026_000],
];

describe("retryAfterMs", () => {
  it.each(cases)("Retry-After %j, RateLimit-Reset %j: %j", (retryAfter, reset, expected) => {
    const headers = new Headers();
    if (retryAfter !== undefined) headers.set("retry-after", retryAfter);
    if (reset !== undefined) headers.set("ratelimit-reset", reset);
    expect(retryAfterMs(headers, 429, NOW)).toBe(expected);
  });
});

describe("a RateLimitError from absurd headers", () => {
  it.each(cases)(
    "Retry-After %j, RateLimit-Reset %j: a valid resetAt and a wait in [0, 24 h]",
    async (retryAfter, reset) => {
      const headers: Record<string, string> = {};
      if (retryAfter) headers["retry-after"] = retryAfter;
      if (reset) headers["ratelimit-reset"] = reset;
      const m = await misbehaving(reply(429, limited, headers));
      const error = (await rejection(
        m.rebuild({ maxRetries: 0 }).submit({ sourceUrl: "https://a.example.com/" }),
      )) as RateLimitError;
      expect(error).toBeInstanceOf(RateLimitError);
      expect(Number.isNaN(error.resetAt.getTime())).toBe(false);
      expect(error.retryAfterMs).toBeGreaterThanOrEqual(0);
      expect(error.retryAfterMs).toBeLessThanOrEqual(DAY);
    },
  );

  it("retries only after a wait it can read, never a negative one", async () => {
    const m = await misbehaving((req, res, n) =>
      n === 1 ? reply(503, limited, { "retry-after": "-30" })(req, res, n) : reply(202, running)(req, res, n),
    );
    await expect(
      m.rebuild({ maxRetries: 1 }).submit({ sourceUrl: "https://a.example.com/" }),
    ).resolves.toMatchObject(running);
    expect(m.requests).toHaveLength(2);
  });
});

describe("RebuildClient's rate-limit budget", () => {
  const budget = (remaining: string, reset = "3600", limit = "30") => ({
    "ratelimit-limit": limit,
    "ratelimit-remaining": remaining,
    "ratelimit-reset": reset,
  });

  it("is undefined before any response and follows the RateLimit-* headers of every answer", async () => {
    const m = await misbehaving((req, res, n) =>
      n === 1
        ? reply(202, running, budget("29"))(req, res, n)
        : reply(
            400,
            { message: "bad", error: { code: "VALIDATION_FAILED" }, errors: [] },
            budget("28", "3599"),
          )(req, res, n),
    );
    const client = m.rebuild();
    expect(client.rateLimit).toBeUndefined();
    const before = Date.now();
    await client.submit({ sourceUrl: "https://a.example.com/" });
    expect(client.rateLimit).toMatchObject({ limit: 30, remaining: 29 });
    expect(client.rateLimit?.resetAt.getTime()).toBeGreaterThanOrEqual(before + 3_600_000);
    await rejection(client.submit({ sourceUrl: "not a url" }));
    expect(client.rateLimit).toMatchObject({ limit: 30, remaining: 28 });
  });

  it("a response without them (a 401) keeps the last known budget", async () => {
    const m = await misbehaving((req, res, n) =>
      n === 1
        ? reply(202, running, budget("5"))(req, res, n)
        : reply(401, { message: "no", error: { code: "UNAUTHORIZED" } })(req, res, n),
    );
    const client = m.rebuild();
    await client.submit({ sourceUrl: "https://a.example.com/" });
    await rejection(client.submit({ sourceUrl: "https://b.example.com/" }));
    expect(client.rateLimit?.remaining).toBe(5);
  });

  it.each([
    ["an unreadable limit", budget("1", "60", "lots")],
    ["a negative remaining", budget("-1")],
    ["a missing reset", { "ratelimit-limit": "30", "ratelimit-remaining": "1" }],
  ])("headers with %s are ignored", (_, headers) => {
    expect(readBudget(new Headers(headers), NOW)).toBeUndefined();
  });

  it("an absurd reset is read as 24 hours, never an Invalid Date", () => {
    expect(readBudget(new Headers(budget("0", "9".repeat(400))), NOW)?.resetAt).toEqual(new Date(NOW + DAY));
  });

  describe("with failFastOnRateLimit", () => {
    it("refuses to send while the budget is spent, with a RateLimitError, and sends again after the reset", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(NOW);
      const m = await misbehaving(reply(202, running, budget("0", "120")));
      const client = m.rebuild({ failFastOnRateLimit: true });
      await client.submit({ sourceUrl: "https://a.example.com/" });
      expect(m.requests).toHaveLength(1);
      const error = (await rejection(
        client.submit({ sourceUrl: "https://b.example.com/" }),
      )) as RateLimitError;
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({ status: 429, code: "RATE_LIMIT_EXCEEDED", retryAfterMs: 120_000 });
      expect(error.resetAt).toEqual(new Date(NOW + 120_000));
      expect(error.message).toBe(
        `POST /api/integration/partners/hostpanel/rebuilds not sent: no rate limit left until ${new Date(NOW + 120_000).toISOString()}`,
      );
      // withResponse() rejects the same way, and nothing was sent.
      expect(
        await rejection(client.submit({ sourceUrl: "https://b.example.com/" }).withResponse()),
      ).toBeInstanceOf(RateLimitError);
      expect(m.requests).toHaveLength(1);
      vi.setSystemTime(NOW + 120_001);
      await client.submit({ sourceUrl: "https://b.example.com/" });
      expect(m.requests).toHaveLength(2);
    });

    it("sends while the budget is not spent", async () => {
      const m = await misbehaving(reply(202, running, budget("1")));
      const client = m.rebuild({ failFastOnRateLimit: true });
      await client.submit({ sourceUrl: "https://a.example.com/" });
      await client.submit({ sourceUrl: "https://b.example.com/" });
      expect(m.requests).toHaveLength(2);
    });

    it("is off by default: the server is asked and answers", async () => {
      const m = await misbehaving(reply(429, limited, { ...budget("0", "120"), "retry-after": "120" }));
      const client = m.rebuild({ maxRetries: 0 });
      await rejection(client.submit({ sourceUrl: "https://a.example.com/" }));
      await rejection(client.submit({ sourceUrl: "https://b.example.com/" }));
      expect(m.requests).toHaveLength(2);
    });
  });
});
