import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createClock } from "../../../mocks/domain/clock.js";
import { seededRandom } from "../../../mocks/domain/random.js";
import { DELIVERY_LOG_LIMIT } from "../../../mocks/domain/rebuild/deliveries.js";
import { createRebuildDomain, defaultRebuildSeed } from "../../../mocks/domain/rebuild/index.js";
import { ORIGIN, SINK_1001, setup, T0 } from "./fixture.js";

const seconds = (posts: Array<{ atMs: number }>) => posts.map((p) => (p.atMs - T0) / 1000);

describe("callback delivery", () => {
  it("retries a failed attempt 10, 20, 40 and 80 s after it ended, until one succeeds", async () => {
    const { clock, domain, partner, posts, respond } = setup();
    respond({ status: 500 }, { error: "timeout" }, "throw");
    const { rebuild } = domain.submit(partner, { sourceUrl: "https://example.com/" });
    await clock.advance(10 * 60_000);
    expect(seconds(posts)).toEqual([5, 15, 35, 75]);
    expect(domain.deliveries().map((d) => [d.attempt, d.responseStatus, d.at])).toEqual([
      [1, 500, "2026-11-22T00:00:05+00:00"],
      [2, null, "2026-11-22T00:00:15+00:00"],
      [3, null, "2026-11-22T00:00:35+00:00"],
      [4, 200, "2026-11-22T00:01:15+00:00"],
    ]);
    for (const delivery of domain.deliveries()) {
      expect(delivery).toMatchObject({ requestId: rebuild.requestId, url: SINK_1001 });
    }
  });

  it("makes 5 attempts at most", async () => {
    const { clock, domain, partner, posts, respond } = setup();
    respond(...Array.from({ length: 10 }, () => ({ status: 503 })));
    domain.submit(partner, { sourceUrl: "https://example.com/" });
    await clock.advance(24 * 3_600_000);
    expect(seconds(posts)).toEqual([5, 15, 35, 75, 155]);
    expect(domain.deliveries().map((d) => d.attempt)).toEqual([1, 2, 3, 4, 5]);
  });

  it.each([
    [199, true],
    [200, false],
    [204, false],
    [299, false],
    [301, true],
    [404, true],
  ])("treats status %i as failed: %s", async (status, retried) => {
    const { clock, domain, partner, posts, respond } = setup();
    respond({ status });
    domain.submit(partner, { sourceUrl: "https://example.com/" });
    await clock.advance(60_000);
    expect(posts.length > 1).toBe(retried);
  });

  it("records each attempt with the JSON object sent and lower-case headers", async () => {
    const { clock, domain, partner } = setup();
    const { rebuild } = domain.submit(partner, { sourceUrl: "https://example.com/" });
    await clock.advance(5000);
    expect(domain.deliveries()).toEqual([
      {
        requestId: rebuild.requestId,
        url: SINK_1001,
        attempt: 1,
        headers: { "content-type": "application/json", "x-api-key": "mock-webhook-key-1001" },
        body: {
          event_type: "partner_project_rebuild_completed",
          request_id: rebuild.requestId,
          partner_id: 1001,
          project_id: rebuild.projectId,
          source_url: "https://example.com/",
          status: "success",
          preview_url: `https://preview.mock.example/projects/${rebuild.projectId}`,
        },
        responseStatus: 200,
        at: "2026-11-22T00:00:05+00:00",
      },
    ]);
  });

  it("reads the partner's current webhook URL and key for every attempt", async () => {
    const { clock, domain, partner, posts, respond } = setup();
    respond({ status: 500 }, { status: 500 });
    domain.submit(partner, { sourceUrl: "https://example.com/" });
    await clock.advance(5000);
    domain.upsertPartner(1001, { webhookUrl: "https://hooks.partner.example.com/a", webhookApiKey: "key-a" });
    await clock.advance(10_000);
    domain.upsertPartner(1001, { webhookUrl: "https://hooks.partner.example.com/b", webhookApiKey: "key-b" });
    await clock.advance(20_000);
    expect(posts.map((p) => [p.url, p.headers["x-api-key"]])).toEqual([
      [SINK_1001, "mock-webhook-key-1001"],
      ["https://hooks.partner.example.com/a", "key-a"],
      ["https://hooks.partner.example.com/b", "key-b"],
    ]);
    expect(domain.deliveries().map((d) => d.url)).toEqual(posts.map((p) => p.url));
  });

  it("records an attempt without a configured webhook as failed and retries it", async () => {
    const { clock, domain, partner, posts } = setup();
    domain.submit(partner, { sourceUrl: "https://example.com/" });
    domain.upsertPartner(1001, { webhookUrl: null });
    await clock.advance(5000);
    expect(posts).toHaveLength(0);
    expect(domain.deliveries()).toMatchObject([
      { attempt: 1, url: null, responseStatus: null, headers: { "content-type": "application/json" } },
    ]);
    domain.upsertPartner(1001, { webhookUrl: "{origin}/__mock/webhook-sink/1001" });
    await clock.advance(10_000);
    expect(seconds(posts)).toEqual([15]);
    expect(domain.deliveries().map((d) => d.responseStatus)).toEqual([null, 200]);
  });

  it("measures the retry delay from when the attempt ended", async () => {
    let source = T0;
    const clock = createClock({ source: () => source });
    const started: number[] = [];
    const domain = createRebuildDomain({
      clock,
      random: seededRandom(1),
      origin: ORIGIN,
      seed: defaultRebuildSeed,
      transport: async () => {
        started.push(clock.now() - T0);
        // The adapter gives up after 10 s of real time.
        source += 10_000;
        return { error: "timeout" };
      },
    });
    const partner = domain.authenticate("1001", "mock-rebuild-key-1001");
    domain.submit(partner, { sourceUrl: "https://example.com/" });
    await clock.advance(5000);
    await clock.advance(25_000);
    // Attempt 1 starts at 5 s and ends at 15 s; attempt 2 is due 10 s later, at 25 s.
    expect(started).toEqual([5000, 25_000]);
    expect(domain.deliveries().map((d) => d.at)).toEqual([
      "2026-11-22T00:00:05+00:00",
      "2026-11-22T00:00:25+00:00",
    ]);
  });

  it("drops pending retries on reset", async () => {
    const { clock, domain, partner, posts, respond } = setup();
    respond({ status: 500 });
    domain.submit(partner, { sourceUrl: "https://example.com/" });
    await clock.advance(5000);
    domain.reset();
    await clock.advance(3_600_000);
    expect(posts).toHaveLength(1);
    expect(domain.deliveries()).toEqual([]);
  });
});

describe("built-in webhook sink", () => {
  it("records what it receives per partner, with lower-case header names", async () => {
    const { clock, domain } = setup();
    await clock.advance(2000);
    domain.sinkReceive("1001", { "Content-Type": "application/json", "X-API-Key": "k" }, '{"hello":1}');
    domain.sinkReceive(1001, {}, "raw");
    expect(domain.sinkList(1001)).toEqual([
      {
        headers: { "content-type": "application/json", "x-api-key": "k" },
        body: { hello: 1 },
        at: "2026-11-22T00:00:02+00:00",
      },
      { headers: {}, body: "raw", at: "2026-11-22T00:00:02+00:00" },
    ]);
    expect(domain.sinkList("1003")).toEqual([]);
    expect(domain.state().sink).toEqual({ "1001": domain.sinkList(1001) });
  });

  it("answers NOT_FOUND for a partner id that cannot exist", () => {
    const { domain } = setup();
    for (const id of ["0", "01", "abc", "-1", 1.5]) {
      expect(() => domain.sinkList(id)).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    }
  });

  it("is emptied by reset", () => {
    const { domain } = setup();
    domain.sinkReceive(1001, {}, "{}");
    domain.reset();
    expect(domain.sinkList(1001)).toEqual([]);
  });
});

describe("callback delivery: attempts in parallel, bounded log", () => {
  it("attempts due together run at once: receivers that never answer hold back no other callback", async () => {
    const clock = createClock({ frozenAt: T0 });
    const calls: string[] = [];
    const hanging: Array<(result: { error: string }) => void> = [];
    let allStarted = () => {};
    const fourStarted = new Promise<void>((resolve) => {
      allStarted = resolve;
    });
    const domain = createRebuildDomain({
      clock,
      random: seededRandom(3),
      origin: ORIGIN,
      seed: defaultRebuildSeed,
      transport: (delivery) => {
        calls.push(delivery.url);
        if (calls.length === 4) allStarted();
        if (delivery.url.includes("hang")) return new Promise((resolve) => hanging.push(resolve));
        return Promise.resolve({ status: 200 });
      },
    });
    const partners = [2001, 2002, 2003].map((id) => {
      domain.upsertPartner(id, { webhookUrl: `https://hang-${id}.example.com/hook` });
      return domain.authenticate(String(id), domain.state().partners.find((p) => p.id === id)?.apiKey ?? "");
    });
    for (const partner of partners) domain.submit(partner, { sourceUrl: "https://www.example.com/" });
    domain.submit(domain.authenticate("1001", "mock-rebuild-key-1001"), {
      sourceUrl: "https://www.example.com/",
    });
    const advancing = clock.advance(5000);
    await fourStarted;
    // The healthy answer's promise callbacks: a few turns of the event loop, no clock.
    for (let turn = 0; turn < 20; turn++) await nextTurn();
    // All four attempts started before any hanging one ended; the healthy one is already recorded.
    expect(calls).toHaveLength(4);
    expect(domain.deliveries().map((d) => [d.url, d.responseStatus])).toEqual([[SINK_1001, 200]]);
    for (const end of hanging) end({ error: "timeout" });
    await advancing;
    expect(domain.deliveries().filter((d) => d.responseStatus === null)).toHaveLength(3);
    // Each retry falls due 10 s after its attempt ended (in virtual time: when it started, frozen).
    expect(domain.snapshot().deliveries.pending.map((p) => p.dueAt)).toEqual([
      "2026-11-22T00:00:15.000Z",
      "2026-11-22T00:00:15.000Z",
      "2026-11-22T00:00:15.000Z",
    ]);
  });

  it("keeps the most recent DELIVERY_LOG_LIMIT attempts and counts the dropped ones in the state", async () => {
    const { clock, domain, partner } = setup();
    domain.upsertPartner(1001, { rateLimitPerHour: 5000 });
    for (let i = 0; i < DELIVERY_LOG_LIMIT + 3; i++) {
      domain.admit(partner);
      domain.submit(partner, { sourceUrl: `https://site-${i}.example.com/` });
    }
    await clock.advance(5000);
    expect(domain.deliveries()).toHaveLength(DELIVERY_LOG_LIMIT);
    expect(domain.state().dropped).toEqual({ deliveries: 3, sink: 0 });
  });
});
