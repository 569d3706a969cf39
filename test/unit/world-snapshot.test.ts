// world.snapshot() / world.restore(): the whole world as JSON, pending work included, no secret in
// it, every value checked on the way back in (field errors by path), nothing changed by a bad one.
import { describe, expect, it } from "vitest";
import { DomainError, type FieldError } from "../../mocks/domain/errors.js";
import {
  type CallbackDelivery,
  createClock,
  createMockWorld,
  type MockWorld,
  type MockWorldSnapshot,
  seededRandom,
} from "../../mocks/index.js";
import { coreOf } from "../../mocks/world.js";
import { FROZEN_AT, PARTNER, TOKEN } from "../support/default-seed.js";

function frozenWorld(at = FROZEN_AT) {
  const sent: CallbackDelivery[] = [];
  const world = createMockWorld({
    clock: createClock({ frozenAt: at }),
    random: seededRandom(11),
    // Every callback fails, so retries stay pending; the sink gets its entries through its own call.
    transport: async (delivery) => {
      sent.push(delivery);
      return { status: 503 };
    },
  });
  return { world, sent };
}

/** A world with something of everything: tokens, servers, invitations, rebuilds in every state, deliveries, the sink, the rate window, faults. */
async function busyWorld() {
  const { world, sent } = frozenWorld();
  // The public APIs' operations, through the world's internals (the HTTP tests go through the routes).
  const { dashboard, rebuild } = coreOf(world);
  const owner = dashboard.authenticate(`Bearer ${TOKEN.unrestricted}`);
  const created = dashboard.createApiToken(owner, {
    name: "kept",
    claims: [{ name: "manage-api-tokens" }],
  });
  dashboard.deleteApiToken(owner, created.data.id);
  const again = dashboard.createApiToken(owner, { name: "after a deletion", claims: [] });
  dashboard.connectServers(owner, {
    servers: [{ address: "https://panel9.example.com", product: "plesk" }],
  });
  dashboard.sendInvitations(owner, { emails: ["new@example.org"] });
  const partner = rebuild.authenticate(PARTNER.ok.id, PARTNER.ok.apiKey);
  rebuild.admit(partner);
  const done = rebuild.submit(partner, { sourceUrl: "https://done.example.com/", prompt: "Keep it" });
  rebuild.admit(partner);
  const stalled = rebuild.submit(partner, { sourceUrl: "https://stall.example.com/" });
  await world.clock.advance(5000);
  rebuild.admit(partner);
  const running = rebuild.submit(partner, { sourceUrl: "https://fail.example.com/" });
  rebuild.sinkReceive(1001, { "X-Trace": "a" }, '{"hello":"sink"}');
  world.openMagicLink({
    partnerId: 1001,
    promptToken: Buffer.from(`rebuildId=${done.rebuild.projectId}`).toString("base64"),
    customerId: "c-1",
  });
  world.setFaults({ latencyMs: 5, errorRate: 0.1, resetRate: 0 });
  return { world, sent, again, done, stalled, running };
}

// biome-ignore lint/suspicious/noExplicitAny: the tests below edit arbitrary paths of a parsed snapshot
type EditableJson = Record<string, any>;

const roundTrip = (snapshot: MockWorldSnapshot) => JSON.parse(JSON.stringify(snapshot)) as MockWorldSnapshot;

describe("world.snapshot() and world.restore()", () => {
  it("bring back the whole state, exactly", async () => {
    const { world } = await busyWorld();
    const copy = frozenWorld(Date.parse("2030-01-01T00:00:00Z")).world;
    copy.restore(roundTrip(world.snapshot()));
    expect(copy.state()).toEqual(world.state());
    expect(copy.snapshot()).toEqual(world.snapshot());
    expect(copy.getFaults()).toEqual({ latencyMs: 5, errorRate: 0.1, resetRate: 0, rules: [] });
  });

  it("hold no token secret, only hashes; restored tokens answer to their secrets, deleted ids stay used", async () => {
    const { world, again } = await busyWorld();
    const json = JSON.stringify(world.snapshot());
    for (const secret of [again.data.token, TOKEN.unrestricted, TOKEN.manage])
      expect(json).not.toContain(secret);
    const copy = frozenWorld().world;
    copy.restore(JSON.parse(json));
    const { dashboard } = coreOf(copy);
    const owner = dashboard.authenticate(`Bearer ${again.data.token}`);
    const next = dashboard.createApiToken(owner, { name: "next", claims: [] });
    expect(next.data.id).toBe(again.data.id + 1);
  });

  it("bring back pending work with its due times: a running rebuild completes, retries go on", async () => {
    const { world, running, stalled } = await busyWorld();
    const { world: copy, sent } = frozenWorld();
    copy.restore(roundTrip(world.snapshot()));
    const pendingBefore = copy.snapshot().rebuild.deliveries.pending.length;
    expect(pendingBefore).toBeGreaterThan(0);
    await copy.clock.advance(5000);
    const states = Object.fromEntries(copy.state().rebuild.rebuilds.map((r) => [r.requestId, r.status]));
    expect(states[running.rebuild.requestId]).toBe("failed");
    expect(states[stalled.rebuild.requestId]).toBe("running");
    // The retry of the first callback (due 10 s after its attempt at +5 s) and the new callback.
    expect(sent.map((d) => JSON.parse(d.body).request_id)).toContain(running.rebuild.requestId);
    await copy.clock.advance(10_000);
    expect(copy.state().rebuild.deliveries.filter((d) => d.attempt === 2).length).toBeGreaterThan(0);
  });

  it("with resume, keep the offset from real time on a clock that follows it", () => {
    let source = Date.parse("2026-05-01T00:00:00Z");
    const clock = createClock({ source: () => source });
    const world = createMockWorld({ clock, random: seededRandom(1) });
    coreOf(world).clock.setTime(source + 3_600_000);
    const snapshot = roundTrip(world.snapshot());
    source += 86_400_000;
    const later = createMockWorld({ clock: createClock({ source: () => source }), random: seededRandom(2) });
    later.restore(snapshot, { resume: true });
    expect(later.clock.now()).toBe(source + 3_600_000);
    later.restore(snapshot);
    expect(later.clock.now()).toBe(source - 86_400_000 + 3_600_000);
  });

  it("write the mock's own sink as {origin}, so a state moves to another port", async () => {
    const { world } = await busyWorld();
    const partner = world.snapshot().rebuild.partners.find((p) => p.id === 1001);
    expect(partner?.webhookUrl).toBe("{origin}/__mock/webhook-sink/1001");
    const elsewhere = createMockWorld({
      origin: "http://127.0.0.1:5999",
      clock: createClock({ frozenAt: FROZEN_AT }),
    });
    elsewhere.restore(roundTrip(world.snapshot()));
    expect(elsewhere.state().rebuild.partners.find((p) => p.id === 1001)?.webhookUrl).toBe(
      "http://127.0.0.1:5999/__mock/webhook-sink/1001",
    );
  });
});

/** The field errors restore throws, as `type@path`. */
function refusal(world: MockWorld, snapshot: unknown): string[] {
  try {
    // Parsed JSON of any shape, as a state file or a PUT body may hold.
    world.restore(snapshot as MockWorldSnapshot);
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== "VALIDATION_FAILED") throw error;
    return (error.details.fieldErrors ?? []).map((e) => `${e.type}@${e.path}`);
  }
  throw new Error("restore accepted it");
}

describe("world.restore() refuses what is not a valid state, naming each bad value, and changes nothing", () => {
  const edit = async (change: (s: EditableJson) => void) => {
    const { world } = await busyWorld();
    const snapshot = roundTrip(world.snapshot()) as EditableJson;
    change(snapshot);
    return snapshot;
  };

  it.each<[string, (s: EditableJson) => void, string[]]>([
    ["another version", (s) => (s.version = 2), ["invalid_value@version"]],
    ["no clock", (s) => delete s.clock, ["required@clock"]],
    ["a bad instant", (s) => (s.clock.now = "yesterday"), ["invalid_format@clock.now"]],
    [
      "a secret instead of its hash",
      (s) => {
        s.dashboard.tokens[0].secret = "mock-token-unrestricted";
        delete s.dashboard.tokens[0].secretHash;
      },
      ["unknown_field@dashboard.tokens.0.secret", "required@dashboard.tokens.0.secretHash"],
    ],
    [
      "a hash that is not SHA-256 hex",
      (s) => (s.dashboard.tokens[1].secretHash = "abc"),
      ["invalid_format@dashboard.tokens.1.secretHash"],
    ],
    [
      "an unknown claim",
      (s) => (s.dashboard.tokens[2].claims = [{ name: "root" }]),
      ["invalid_value@dashboard.tokens.2.claims.0.name"],
    ],
    [
      "a partner key with a space",
      (s) => (s.rebuild.partners[0].apiKey = "a b"),
      ["invalid_format@rebuild.partners.0.apiKey"],
    ],
    [
      "a rebuild of an unknown partner",
      (s) => (s.rebuild.rebuilds[0].partnerId = 999),
      ["invalid_value@rebuild.rebuilds.0.partnerId"],
    ],
    [
      "a non-public sourceUrl",
      (s) => (s.rebuild.rebuilds[0].sourceUrl = "http://10.0.0.1/"),
      ["invalid_value@rebuild.rebuilds.0.sourceUrl"],
    ],
    [
      "a running rebuild with a completedAt",
      (s) => {
        const running = s.rebuild.rebuilds.find((r: { status: string }) => r.status === "running");
        running.completedAt = "2026-03-01T12:00:00Z";
      },
      ["unknown_field@rebuild.rebuilds.1.completedAt"],
    ],
    [
      "a pending retry with attempt 6",
      (s) => (s.rebuild.deliveries.pending[0].attempt = 6),
      ["too_big@rebuild.deliveries.pending.0.attempt"],
    ],
    [
      "a delivery whose URL is no URL",
      (s) => (s.rebuild.deliveries.log[0].url = "not a url {at all}"),
      ["invalid_format@rebuild.deliveries.log.0.url"],
    ],
    ["faults out of range", (s) => (s.faults.errorRate = 2), ["too_big@faults.errorRate"]],
    [
      "faults that add up to more than 1",
      (s) => Object.assign(s.faults, { errorRate: 0.6, resetRate: 0.6 }),
      ["invalid_value@faults.errorRate"],
    ],
    [
      "a sink body nested too deep",
      (s) => (s.rebuild.sink.entries["1001"][0].text = "[".repeat(100)),
      ["too_big@rebuild.sink.entries.1001.0.text"],
    ],
  ])("%s", async (_, change, expected) => {
    const snapshot: unknown = await edit(change);
    const { world } = await busyWorld();
    const before = world.snapshot();
    expect(refusal(world, snapshot)).toEqual(expect.arrayContaining(expected));
    expect(world.snapshot()).toEqual(before);
  });

  it("every broken reference and key given twice, in both halves, in one error at each element's path", async () => {
    const snapshot = await edit((s) => {
      const { dashboard, rebuild } = s;
      dashboard.teams.push({ ...dashboard.teams[0], id: "team-c" });
      dashboard.users[1].team = "nope";
      dashboard.users.push({ id: 3, email: dashboard.users[0].email.toUpperCase(), team: "team-a" });
      dashboard.tokens[0].userId = 77;
      dashboard.tokens[2].id = dashboard.tokens[1].id;
      dashboard.tokens[3].secretHash = dashboard.tokens[1].secretHash;
      dashboard.servers[2].team = "nope";
      dashboard.servers[1].guid = dashboard.servers[0].guid.toUpperCase();
      dashboard.nextTokenId = 2;
      dashboard.invitations.log[0].team = "nope";
      dashboard.invitations.invitedTeams[0].team = "nope";
      rebuild.sink.entries["1001"][0].text = "[".repeat(100);
      Object.assign(s.faults, { errorRate: 0.6, resetRate: 0.6 });
    });
    const { world } = frozenWorld();
    const before = world.snapshot();
    let errors: FieldError[] = [];
    try {
      world.restore(snapshot as MockWorldSnapshot);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      errors = [...(error.details.fieldErrors ?? [])];
    }
    const team0 = (snapshot.dashboard.teams[0] as { guid: string }).guid;
    const email0 = (snapshot.dashboard.users[0] as { email: string }).email;
    const guid0 = (snapshot.dashboard.servers[0] as { guid: string }).guid;
    expect(errors).toEqual([
      {
        type: "duplicate",
        path: "dashboard.teams.2.guid",
        message: `must not repeat team GUID ${team0} (first at dashboard.teams.0.guid)`,
      },
      {
        type: "invalid_value",
        path: "dashboard.users.1.team",
        message: "must be the id of a team in the snapshot",
      },
      {
        type: "duplicate",
        path: "dashboard.users.2.email",
        message: `must not repeat email ${email0.toUpperCase()} (first at dashboard.users.0.email)`,
      },
      {
        type: "invalid_value",
        path: "dashboard.tokens.0.userId",
        message: "must be the id of a user in the snapshot",
      },
      {
        type: "duplicate",
        path: "dashboard.tokens.2.id",
        message: "must not repeat token id 2 (first at dashboard.tokens.1.id)",
      },
      {
        type: "duplicate",
        path: "dashboard.tokens.3.secretHash",
        message: "must not repeat a secret hash (first at dashboard.tokens.1.secretHash)",
      },
      {
        type: "duplicate",
        path: "dashboard.servers.1.guid",
        message: `must not repeat server GUID ${guid0.toUpperCase()} (first at dashboard.servers.0.guid)`,
      },
      {
        type: "invalid_value",
        path: "dashboard.servers.2.team",
        message: "must be the id of a team in the snapshot",
      },
      {
        type: "too_small",
        path: "dashboard.nextTokenId",
        message: expect.stringMatching(/^must be greater than \d+$/),
      },
      {
        type: "invalid_value",
        path: "dashboard.invitations.log.0.team",
        message: "must be the id of a team in the snapshot",
      },
      {
        type: "invalid_value",
        path: "dashboard.invitations.invitedTeams.0.team",
        message: "must be the id of a team in the snapshot",
      },
      {
        type: "too_big",
        path: "rebuild.sink.entries.1001.0.text",
        message: "must not nest deeper than 64 levels",
      },
      { type: "invalid_value", path: "faults.errorRate", message: expect.any(String) },
    ]);
    expect(world.snapshot()).toEqual(before);
  });

  it("anything but an object is one error at the root", () => {
    const { world } = frozenWorld();
    expect(refusal(world, [])).toEqual(["invalid_type@"]);
    expect(refusal(world, null)).toEqual(["invalid_type@"]);
  });
});
