// contract-decisions, Partner site rebuild API, check 3: 30 requests per sliding hour per partner;
// every admitted request counts (repeats and invalid bodies too), a 429 does not; RateLimit-* on
// every answer after the feature check; Retry-After in whole seconds until a slot frees.
import { describe, expect, it } from "vitest";
import { PARTNER } from "../support/default-seed.js";
import { REBUILDS_PATH, rebuildHeaders, submitRebuild } from "./support/client.js";
import { expectError, rateLimitOf } from "./support/expectations.js";
import { useMswMock } from "./support/harness.js";

const { world, call, control } = useMswMock();
const url = (n: number) => ({ sourceUrl: `https://site-${n}.example.com/` });

describe("rate limit: 30 per sliding hour per partner", () => {
  it("30 requests pass, the 31st gets 429 RATE_LIMIT_EXCEEDED with Retry-After", async () => {
    for (let n = 1; n <= 30; n++) {
      const answer = await submitRebuild(call, url(n));
      expect(answer.status).toBe(202);
      expect(rateLimitOf(answer)).toEqual({ limit: 30, remaining: 30 - n, reset: 3600 });
    }
    const refused = await submitRebuild(call, url(31));
    expectError(refused, 429, "RATE_LIMIT_EXCEEDED");
    expect(refused.headers.get("retry-after")).toBe("3600");
    expect(rateLimitOf(refused)).toEqual({ limit: 30, remaining: 0, reset: 3600 });
  });

  it("repeats and invalid bodies count; 400, 413, 415, 422 and 429 all carry the RateLimit headers", async () => {
    const sent = [
      await submitRebuild(call, url(1)), // 202
      await submitRebuild(call, url(1)), // 200, a repeat
      await submitRebuild(call, { sourceUrl: "ftp://example.com" }), // 400
      await call({
        method: "POST",
        path: REBUILDS_PATH,
        headers: { ...rebuildHeaders(), "content-type": "text/plain" },
        body: "{}",
      }), // 415
      await call({
        method: "POST",
        path: REBUILDS_PATH,
        headers: { ...rebuildHeaders(), "content-type": "application/json" },
        body: "x".repeat(1024 * 1024 + 1),
      }), // 413
    ];
    expect(sent.map((a) => a.status)).toEqual([202, 200, 400, 415, 413]);
    expect(sent.map((a) => rateLimitOf(a).remaining)).toEqual([29, 28, 27, 26, 25]);
    const noWebhooks = { partnerId: PARTNER.noWebhooks.id, apiKey: PARTNER.noWebhooks.apiKey };
    const unconfigured = await submitRebuild(call, url(1), noWebhooks);
    expect([unconfigured.status, rateLimitOf(unconfigured).remaining]).toEqual([422, 29]);
  });

  it("a request refused with 429 does not use a slot", async () => {
    await control.putPartner(PARTNER.ok.id, { rateLimitPerHour: 2 });
    await submitRebuild(call, url(1));
    await world.clock.advance(600_000);
    await submitRebuild(call, url(2));
    for (let i = 0; i < 5; i++) {
      const refused = await submitRebuild(call, url(3));
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("3000");
    }
    // Only the two admitted requests are in the window: the oldest leaves at 60 min.
    await world.clock.advance(3_000_000);
    const admitted = await submitRebuild(call, url(3));
    expect(admitted.status).toBe(202);
    expect(rateLimitOf(admitted)).toEqual({ limit: 2, remaining: 0, reset: 600 });
  });

  it("the window slides: advancing the world clock frees a slot exactly when the oldest request is an hour old", async () => {
    await submitRebuild(call, url(0));
    await control.advance(60);
    for (let n = 1; n < 30; n++) await submitRebuild(call, url(n));
    const refused = await submitRebuild(call, url(30));
    expect(refused.headers.get("retry-after")).toBe("3540");
    expect(rateLimitOf(refused).reset).toBe(3540);
    await control.advance(3539);
    expect((await submitRebuild(call, url(30))).headers.get("retry-after")).toBe("1");
    await control.advance(1);
    const freed = await submitRebuild(call, url(30));
    expect(freed.status).toBe(202);
    expect(rateLimitOf(freed)).toEqual({ limit: 30, remaining: 0, reset: 60 });
    expect((await submitRebuild(call, url(31))).headers.get("retry-after")).toBe("60");
  });

  it("RateLimit-Reset and Retry-After round up to whole seconds", async () => {
    await submitRebuild(call, url(0));
    await world.clock.advance(500);
    const second = await submitRebuild(call, url(1));
    expect(rateLimitOf(second).reset).toBe(3600); // 3599.5 s rounded up
    await world.clock.advance(3_599_001);
    expect(rateLimitOf(await submitRebuild(call, url(2))).reset).toBe(1); // 0.499 s rounded up
  });

  it("the limit is per partner and configurable", async () => {
    await control.putPartner("2001", { rateLimitPerHour: 1 });
    const partner = await control.putPartner("2001", {});
    const other = { partnerId: "2001", apiKey: String(partner.apiKey) };
    expect((await submitRebuild(call, url(1), other)).status).toBe(202);
    expect((await submitRebuild(call, url(2), other)).status).toBe(429);
    expect(rateLimitOf(await submitRebuild(call, url(1))).remaining).toBe(29);
  });

  it("lowering the limit below what is counted keeps refusing until enough requests leave", async () => {
    for (let n = 0; n < 3; n++) {
      await submitRebuild(call, url(n));
      await world.clock.advance(60_000);
    }
    await control.putPartner(PARTNER.ok.id, { rateLimitPerHour: 1 });
    const refused = await submitRebuild(call, url(9));
    expect(rateLimitOf(refused)).toEqual({ limit: 1, remaining: 0, reset: 3420 });
    // A slot frees only once all three have left: the newest leaves 120 s after the oldest.
    expect(refused.headers.get("retry-after")).toBe("3540");
  });
});
