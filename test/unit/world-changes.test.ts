// `world.onChange` announces every change (the console's live updates, decisions/032): requests to
// either API that changed something, control operations, the clock's own work, reset and restore;
// and nothing for what only reads.
import { describe, expect, it } from "vitest";
import { createMockDispatcher } from "../../mocks/http/mock-dispatcher.js";
import { createClock, createMockWorld, type MockWorld, seededRandom } from "../../mocks/index.js";
import { FROZEN_AT, PARTNER, TOKEN } from "../support/default-seed.js";

function watched(world: MockWorld) {
  let count = 0;
  const stop = world.onChange(() => {
    count++;
  });
  return {
    stop,
    /** How many announcements since the last call. */
    take: () => {
      const seen = count;
      count = 0;
      return seen;
    },
  };
}

function frozenWorld(options: Parameters<typeof createMockWorld>[0] = {}) {
  return createMockWorld({
    clock: createClock({ frozenAt: FROZEN_AT }),
    random: seededRandom(3),
    ...options,
  });
}

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe("world.onChange", () => {
  it("announces a request to either API that changed something, and not one that was refused first", async () => {
    const world = frozenWorld();
    const dispatch = createMockDispatcher(world);
    const changes = watched(world);
    const headers = (entries: Record<string, string>) => new Headers(entries);

    // Refused before anything changed: an unknown token, an unknown path.
    await dispatch({
      method: "GET",
      url: new URL(`${world.origin}/v1/si/servers`),
      headers: headers({ authorization: "Bearer nobody" }),
      body: null,
    });
    await dispatch({
      method: "GET",
      url: new URL(`${world.origin}/v1/nothing`),
      headers: headers({}),
      body: null,
    });
    expect(changes.take()).toBe(0);

    // A read stamps the token's lastUsedAt: that is a change the state shows.
    await dispatch({
      method: "GET",
      url: new URL(`${world.origin}/v1/si/servers`),
      headers: headers({ authorization: `Bearer ${TOKEN.unrestricted}` }),
      body: null,
    });
    expect(changes.take()).toBeGreaterThan(0);

    const submitted = await dispatch({
      method: "POST",
      url: new URL(`${world.origin}/api/integration/partners/hostpanel/rebuilds`),
      headers: headers({
        "x-partner-id": PARTNER.ok.id,
        "x-api-key": PARTNER.ok.apiKey,
        "content-type": "application/json",
      }),
      body: json({ sourceUrl: "https://www.example.com/" }),
    });
    expect(submitted).toMatchObject({ kind: "respond", response: { status: 202 } });
    expect(changes.take()).toBeGreaterThan(0);
  });

  it("announces control operations that change something and the built-in sink's receipts, not reads", async () => {
    const world = frozenWorld();
    const dispatch = createMockDispatcher(world);
    const changes = watched(world);

    world.state();
    world.snapshot();
    world.getFaults();
    world.listDeliveries();
    world.listSinkEntries(1001);
    expect(changes.take()).toBe(0);

    world.setFaults({ latencyMs: 10 });
    expect(changes.take()).toBe(1);
    world.upsertPartner(2001, { region: "us" });
    expect(changes.take()).toBe(1);
    world.rotatePartnerKey(2001);
    expect(changes.take()).toBe(1);
    await world.advanceClock({ seconds: 1 });
    expect(changes.take()).toBe(1);
    world.reset();
    expect(changes.take()).toBe(1);
    world.restore(world.snapshot());
    expect(changes.take()).toBe(1);

    await dispatch({
      method: "POST",
      url: new URL(`${world.origin}/__mock/webhook-sink/1001`),
      headers: new Headers({ "content-type": "text/plain" }),
      body: json("hello"),
    });
    expect(changes.take()).toBe(1);
  });

  it("announces a completion at once and its callback attempt again once it ended", async () => {
    let answer: (result: { status: number }) => void = () => {};
    const world = frozenWorld({
      transport: () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    });
    const { rebuild } = world.state();
    expect(rebuild.rebuilds).toEqual([]);
    const dispatch = createMockDispatcher(world);
    await dispatch({
      method: "POST",
      url: new URL(`${world.origin}/api/integration/partners/hostpanel/rebuilds`),
      headers: new Headers({
        "x-partner-id": PARTNER.ok.id,
        "x-api-key": PARTNER.ok.apiKey,
        "content-type": "application/json",
      }),
      body: json({ sourceUrl: "https://www.example.com/" }),
    });
    const changes = watched(world);

    const advanced = world.clock.advance(5_000);
    // The receiver has not answered yet: the rebuild's new status is announced already.
    await Promise.resolve();
    expect(changes.take()).toBe(1);
    expect(world.state().rebuild.rebuilds[0]?.status).toBe("success");
    expect(world.listDeliveries().data).toEqual([]);

    answer({ status: 500 });
    await advanced;
    expect(changes.take()).toBe(1);
    expect(world.listDeliveries().data.map((d) => d.responseStatus)).toEqual([500]);

    changes.stop();
    world.reset();
    expect(changes.take()).toBe(0);
  });
});
