// The world's small public face (decisions/025): references that stay valid across reset and
// restore, nothing mutable shared between worlds, a transport bound for the world's life, and the
// control API's operations in-process with the control API's checks.
import { setupServer } from "msw/node";
import { afterEach, describe, expect, it } from "vitest";
import { NO_FAULTS } from "../../mocks/domain/faults.js";
import {
  type CallbackDelivery,
  createClock,
  createHandlers,
  createMockWorld,
  defaultDashboardSeed,
  defaultRebuildSeed,
  type MockObservation,
  type MockWorld,
  seededRandom,
} from "../../mocks/index.js";
import { coreOf } from "../../mocks/world.js";
import { FROZEN_AT, PARTNER, TOKEN } from "../support/default-seed.js";

const frozen = () => createClock({ frozenAt: FROZEN_AT });

function submit(world: MockWorld, sourceUrl: string) {
  const { rebuild } = coreOf(world);
  const partner = rebuild.authenticate(PARTNER.ok.id, PARTNER.ok.apiKey);
  return rebuild.submit(partner, { sourceUrl }).rebuild;
}

describe("references stay valid across reset and restore", () => {
  it("a destructured operation and the domains behind it keep working on the same world", async () => {
    const world = createMockWorld({ clock: frozen(), random: seededRandom(1) });
    const { upsertPartner, listDeliveries, state, clock } = world;
    const { dashboard, rebuild } = coreOf(world);
    const saved = world.snapshot();

    world.reset();
    upsertPartner(2001, { region: "us" });
    const owner = dashboard.authenticate(`Bearer ${TOKEN.unrestricted}`);
    dashboard.createApiToken(owner, { name: "after reset", claims: [] });
    expect(state().rebuild.partners.map((p) => p.id)).toContain(2001);
    expect(state().dashboard.tokens.map((t) => t.name)).toContain("after reset");

    world.restore(saved);
    expect(coreOf(world).dashboard).toBe(dashboard);
    expect(coreOf(world).rebuild).toBe(rebuild);
    expect(state().rebuild.partners.map((p) => p.id)).not.toContain(2001);
    submit(world, "https://after-restore.example.com/");
    await clock.advance(5000);
    expect(listDeliveries().data).toHaveLength(1);
    expect(dashboard.authenticate(`Bearer ${TOKEN.unrestricted}`).userId).toBe(1);
  });
});

describe("no world shares a mutable object with another", () => {
  it("fault settings are each world's own; the defaults are frozen", () => {
    const a = createMockWorld({ clock: frozen() });
    const b = createMockWorld({ clock: frozen() });
    a.setFaults({ errorRate: 0.5 });
    expect(b.getFaults()).toEqual({ latencyMs: 0, errorRate: 0, resetRate: 0, rules: [] });
    expect(createMockWorld({ clock: frozen() }).getFaults().errorRate).toBe(0);
    const copy = a.getFaults();
    copy.errorRate = 1;
    expect(a.getFaults().errorRate).toBe(0.5);
    expect(Object.isFrozen(NO_FAULTS)).toBe(true);
    a.reset();
    expect(a.getFaults().errorRate).toBe(0);
  });

  it("the default seeds cannot be changed for the next world", () => {
    expect(() => {
      (defaultRebuildSeed.partners[0] as { apiKey?: string }).apiKey = "changed";
    }).toThrow(TypeError);
    expect(() => {
      (defaultDashboardSeed.tokens as unknown[]).push({});
    }).toThrow(TypeError);
    const world = createMockWorld({ clock: frozen() });
    expect(world.state().rebuild.partners[0]?.apiKey).toBe(PARTNER.ok.apiKey);
  });

  it("a seed changed by its caller after the world was made never reaches a reset unchecked", () => {
    const seed = structuredClone({ dashboard: defaultDashboardSeed, rebuild: defaultRebuildSeed });
    const world = createMockWorld({ clock: frozen(), seed });
    const address = world.state().dashboard.servers[0]?.address;
    (seed.dashboard.servers[0] as { address: string }).address = "https://a.example.com/a b`{";
    world.reset();
    expect(world.state().dashboard.servers[0]?.address).toBe(address);
  });

  it("a clock drives one world: a second world on the same clock is refused", () => {
    const clock = frozen();
    createMockWorld({ clock });
    expect(() => createMockWorld({ clock })).toThrow(
      new TypeError("createMockWorld: this clock already drives another world; give each world its own"),
    );
  });
});

describe("the world's clock is a view", () => {
  it("reads, advances, freezes and settles the world's time; its reset and jumps stay the world's", async () => {
    const world = createMockWorld({ clock: createClock({ source: () => FROZEN_AT }) });
    expect(Object.keys(world.clock).sort()).toEqual(
      ["advance", "dispose", "freeze", "frozen", "now", "offsetMs", "settle"].sort(),
    );
    expect(world.clock.frozen).toBe(false);
    world.clock.freeze();
    expect(world.clock.frozen).toBe(true);
    const { requestId } = submit(world, "https://clock-view.example.com/");
    await world.clock.advance(5_000);
    await world.clock.settle();
    expect(world.clock.now()).toBe(FROZEN_AT + 5_000);
    expect(world.clock.offsetMs).toBe(5_000);
    expect(world.state().rebuild.rebuilds.find((r) => r.requestId === requestId)?.status).toBe("success");
    // What would put the clock out of step with the world's state is not there, in types or at run time.
    // @ts-expect-error reset is the world's (world.reset())
    expect(world.clock.reset).toBeUndefined();
    // @ts-expect-error a jump in time is a restore (world.restore())
    expect(world.clock.setTime).toBeUndefined();
    // @ts-expect-error scheduling is the domains'
    expect(world.clock.schedule).toBeUndefined();
  });

  it("createClock hands out the same view: a world takes it, and nothing else that looks like one", () => {
    const clock = createClock({ frozenAt: FROZEN_AT });
    expect(Object.keys(clock).sort()).toEqual(Object.keys(createMockWorld().clock).sort());
    // @ts-expect-error a jump in time is a restore (world.restore()), not the clock's user's (decisions/047)
    expect(clock.setTime).toBeUndefined();
    const world = createMockWorld({ clock });
    expect(world.clock.now()).toBe(FROZEN_AT);
    const lookalike = { ...clock };
    expect(() => createMockWorld({ clock: lookalike })).toThrow(
      new TypeError("createMockWorld: clock must be one createClock() made"),
    );
    expect(() => createMockWorld({ clock })).toThrow(/already drives another world/);
  });
});

describe("the world's origin", () => {
  it.each(["http://127.0.0.1:4010", "https://mock.example/", "http://[::1]:4010"])(
    "%j is taken",
    (origin) => {
      expect(createMockWorld({ clock: frozen(), origin }).origin).toBe(origin.replace(/\/$/, ""));
    },
  );

  it.each([
    "nonsense",
    "http://127.0.0.1:4010/a{b}",
    "http://127.0.0.1:4010/base",
    "http://u:p@127.0.0.1:4010",
    "http://127.0.0.1:4010?q",
    "ftp://127.0.0.1",
  ])("%j is a TypeError naming what an origin is", (origin) => {
    expect(() => createMockWorld({ clock: frozen(), origin })).toThrow(
      /origin must be an http or https origin/,
    );
  });
});

describe("the transport is bound when the world is created", () => {
  let servers: Array<ReturnType<typeof setupServer>> = [];
  afterEach(() => {
    for (const server of servers) server.close();
    servers = [];
  });

  it("adapters built later watch the callbacks but never take over how they are sent", async () => {
    const sent: CallbackDelivery[] = [];
    const world = createMockWorld({
      clock: frozen(),
      transport: async (delivery) => {
        sent.push(delivery);
        return { status: 204 };
      },
    });
    const seen: string[][] = [[], []];
    for (const log of seen) {
      createHandlers(world, {
        observe: (observation: MockObservation) => {
          if (observation.kind === "callback") log.push(observation.delivery.url);
        },
      });
    }
    submit(world, "https://bound.example.com/");
    await world.clock.advance(5000);
    expect(sent).toHaveLength(1);
    expect(seen).toEqual([[sent[0]?.url], [sent[0]?.url]]);
    expect(world.listDeliveries().data.map((d) => d.responseStatus)).toEqual([204]);
  });

  it("by default the world delivers to its own sink in-process, with no adapter at all", async () => {
    const world = createMockWorld({ clock: frozen() });
    const { requestId } = submit(world, "https://sink.example.com/");
    await world.clock.advance(5000);
    expect(
      world.listSinkEntries(1001).data.map((e) => (e.body as { request_id: string }).request_id),
    ).toEqual([requestId]);
    expect(world.listDeliveries().data[0]).toMatchObject({ responseStatus: 200, attempt: 1 });
  });

  it("and anywhere else with fetch, looked up per call: an MSW server started afterwards answers", async () => {
    const world = createMockWorld({ clock: frozen(), callbackTimeoutMs: 2_000 });
    world.upsertPartner(1001, { webhookUrl: "https://receiver.example.com/hook" });
    const server = setupServer(...createHandlers(world));
    servers.push(server);
    server.listen({ onUnhandledRequest: "bypass" });
    submit(world, "https://elsewhere.example.com/");
    await world.clock.advance(5000);
    // Not the mock's: MSW lets it through to the network, where the name does not resolve.
    expect(world.listDeliveries().data[0]).toMatchObject({
      url: "https://receiver.example.com/hook",
      responseStatus: null,
    });
  });
});

describe("the control API's operations, in-process", () => {
  it("refuse a setting the control API does not have (their types: world-facade.test-d.ts)", () => {
    const world = createMockWorld({ clock: frozen() });
    // @ts-expect-error: a setting the control API does not have
    expect(() => world.upsertPartner(1001, { plan: "gold" })).toThrow(/plan: is not a known field/);
  });

  it("check what a JavaScript caller passes, as the HTTP API does", async () => {
    const world = createMockWorld({ clock: frozen() });
    const raw = <T>(value: unknown) => value as T;
    expect(() => world.upsertPartner(1001, raw({ featureEnabled: "yes" }))).toThrow(
      expect.objectContaining({ code: "VALIDATION_FAILED" }),
    );
    expect(() => world.upsertPartner(raw("01001"), {})).toThrow(
      expect.objectContaining({ code: "NOT_FOUND" }),
    );
    await expect(world.advanceClock(raw({ seconds: -1 }))).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    expect(() => world.setFaults(raw({ errorRate: 0.6, resetRate: 0.6 }))).toThrow(
      /errorRate: must not exceed 1 together with resetRate/,
    );
    expect(() => world.openMagicLink(raw({ partnerId: 1001, promptToken: "x" }))).toThrow(
      expect.objectContaining({ code: "VALIDATION_FAILED" }),
    );
  });

  it("opening a magic link names the brand the customer's server IP selects", () => {
    const world = createMockWorld({ clock: frozen() });
    const open = (serverIp?: string) =>
      world.openMagicLink({
        partnerId: 1001,
        promptToken: "x",
        customerId: "c",
        ...(serverIp ? { serverIp } : {}),
      });
    expect(open("203.0.113.10")).toMatchObject({ assigned: false, brand: { name: "Example Hosting" } });
    expect(open("::ffff:203.0.113.10").brand?.name).toBe("Example Hosting");
    expect(open("198.51.100.1").brand).toBeNull();
    expect(open().brand).toBeNull();
  });
});
