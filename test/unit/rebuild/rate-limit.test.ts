import { describe, expect, it } from "vitest";
import { codeOf, setup, thrownSync } from "./fixture.js";

const HOUR = 3_600_000;

describe("rate window", () => {
  it("admits 30 requests an hour by default and answers the RateLimit-* values", () => {
    const { domain, partner } = setup();
    expect(domain.rateLimitState(partner)).toEqual({ limit: 30, remaining: 30, resetSeconds: 0 });
    for (let i = 1; i <= 30; i++) {
      expect(domain.admit(partner)).toEqual({ limit: 30, remaining: 30 - i, resetSeconds: 3600 });
    }
    const refused = thrownSync(() => domain.admit(partner));
    expect(refused.code).toBe("RATE_LIMIT_EXCEEDED");
    expect(refused.details.retryAfterSeconds).toBe(3600);
    expect(domain.rateLimitState(partner)).toEqual({ limit: 30, remaining: 0, resetSeconds: 3600 });
  });

  it("frees exactly one slot when the oldest counted request leaves the window", async () => {
    const { clock, domain, partner } = setup();
    domain.admit(partner);
    await clock.advance(10 * 60_000);
    for (let i = 0; i < 29; i++) domain.admit(partner);

    await clock.advance(50 * 60_000 - 1);
    const almost = thrownSync(() => domain.admit(partner));
    expect(almost.details.retryAfterSeconds).toBe(1);
    expect(domain.rateLimitState(partner).resetSeconds).toBe(1);

    await clock.advance(1);
    expect(domain.admit(partner).remaining).toBe(0);
    const next = thrownSync(() => domain.admit(partner));
    expect(next.details.retryAfterSeconds).toBe(10 * 60);
  });

  it("rounds partial seconds up", async () => {
    const { clock, domain, partner } = setup();
    for (let i = 0; i < 30; i++) domain.admit(partner);
    await clock.advance(1500);
    expect(thrownSync(() => domain.admit(partner)).details.retryAfterSeconds).toBe(3599);
    expect(domain.rateLimitState(partner).resetSeconds).toBe(3599);
  });

  it("does not count a refused request", async () => {
    const { clock, domain, partner } = setup();
    for (let i = 0; i < 30; i++) domain.admit(partner);
    await clock.advance(HOUR / 2);
    for (let i = 0; i < 10; i++) expect(codeOf(() => domain.admit(partner))).toBe("RATE_LIMIT_EXCEEDED");
    await clock.advance(HOUR / 2);
    for (let i = 0; i < 30; i++) domain.admit(partner);
    expect(codeOf(() => domain.admit(partner))).toBe("RATE_LIMIT_EXCEEDED");
  });

  it("counts requests whose body is then rejected", () => {
    const { domain, partner } = setup();
    for (let i = 0; i < 30; i++) {
      domain.admit(partner);
      expect(codeOf(() => domain.submit(partner, { sourceUrl: "http://localhost/" }))).toBe(
        "VALIDATION_FAILED",
      );
    }
    expect(codeOf(() => domain.admit(partner))).toBe("RATE_LIMIT_EXCEEDED");
  });

  it("counts repeated submissions of the same URL", () => {
    const { domain, partner } = setup();
    for (let i = 0; i < 30; i++) {
      domain.admit(partner);
      domain.submit(partner, { sourceUrl: "https://example.com/" });
    }
    expect(codeOf(() => domain.admit(partner))).toBe("RATE_LIMIT_EXCEEDED");
  });

  it("reads the state without counting", () => {
    const { domain, partner } = setup();
    for (let i = 0; i < 100; i++) domain.rateLimitState(partner);
    expect(domain.admit(partner).remaining).toBe(29);
  });

  it("keeps one window per partner", () => {
    const { domain, partner } = setup();
    const other = domain.authenticate("1003", "mock-rebuild-key-1003");
    for (let i = 0; i < 30; i++) domain.admit(partner);
    expect(domain.admit(other).remaining).toBe(29);
  });

  it("uses the partner's configured limit", () => {
    const { domain, partner } = setup();
    domain.upsertPartner(1001, { rateLimitPerHour: 2 });
    expect(domain.admit(partner)).toEqual({ limit: 2, remaining: 1, resetSeconds: 3600 });
    domain.admit(partner);
    expect(codeOf(() => domain.admit(partner))).toBe("RATE_LIMIT_EXCEEDED");
    domain.upsertPartner(1001, { rateLimitPerHour: 3 });
    expect(domain.admit(partner).remaining).toBe(0);
  });

  it("after a lowered limit, waits until enough requests leave for a slot to free", async () => {
    const { clock, domain, partner } = setup();
    for (let i = 0; i < 5; i++) {
      domain.admit(partner);
      await clock.advance(1000);
    }
    domain.upsertPartner(1001, { rateLimitPerHour: 2 });
    // Counted at 0..4 s, now 5 s: four must leave for fewer than 2 to remain; the fourth (counted
    // at 3 s) leaves at 3603 s.
    expect(thrownSync(() => domain.admit(partner)).details.retryAfterSeconds).toBe(3598);
    expect(domain.rateLimitState(partner)).toEqual({ limit: 2, remaining: 0, resetSeconds: 3595 });
  });

  it("stays correct over many hours of traffic (pruning and compaction)", async () => {
    const { clock, domain, partner } = setup();
    domain.upsertPartner(1001, { rateLimitPerHour: 100 });
    let admitted = 0;
    for (let minute = 0; minute < 10 * 60; minute++) {
      for (let i = 0; i < 5; i++) {
        try {
          domain.admit(partner);
          admitted++;
        } catch {
          // refused: over the limit
        }
      }
      await clock.advance(60_000);
    }
    // 100 per sliding hour over 10 hours: the first burst fills the window in 20 minutes, then
    // slots free as the oldest leave, so exactly 100 per hour get through.
    expect(admitted).toBe(1000);
  });

  it("shows in the state what the next request's headers would say: used of limit, and the next slot once full", async () => {
    const { clock, domain, partner } = setup();
    const usage = () => domain.state().rateLimits.find((entry) => entry.partnerId === 1001);
    expect(usage()).toEqual({ partnerId: 1001, used: 0, limit: 30, nextSlotAt: null });
    expect(domain.state().rateLimits.map((entry) => entry.partnerId)).toEqual([1001, 1002, 1003]);

    domain.admit(partner);
    await clock.advance(1500);
    for (let i = 0; i < 28; i++) domain.admit(partner);
    expect(usage()).toEqual({ partnerId: 1001, used: 29, limit: 30, nextSlotAt: null });
    domain.admit(partner);
    // Full: the first request (counted at 00:00:00) leaves the hour 3598.5 s from now, which
    // Retry-After rounds up to 3599; the state says when, in its own whole seconds.
    expect(thrownSync(() => domain.admit(partner)).details.retryAfterSeconds).toBe(3599);
    expect(domain.state().rateLimits[0]).toEqual({
      partnerId: 1001,
      used: 30,
      limit: 30,
      nextSlotAt: "2026-11-22T01:00:00+00:00",
    });

    await clock.advance(HOUR);
    expect(usage()).toEqual({ partnerId: 1001, used: 0, limit: 30, nextSlotAt: null });
  });
});
