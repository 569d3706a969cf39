// Issue "contract conformance", item 6: the SDK against the standalone mock injecting faults into 30%
// of requests (decisions/006: 15% answered 503 before the domain runs, 15% dropped after it ran) and
// latency on every answer. 1,000 calls of every kind: each call that is safe to repeat succeeds,
// each that is not is sent exactly once and surfaces its error, and the world shows no duplicate.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClock, seededRandom } from "../../mocks/index.js";
import { type RunningMockServer, startMockServer } from "../../mocks/node.js";
import { ApiError, ConnectionError, DashboardClient, RebuildClient } from "../../src/index.js";

const CALLS = 1_000;
const LANES = 20;
const FAULTS = { errorRate: 0.15, resetRate: 0.15, latencyMs: 2 };
// Enough that a safe call fails eleven times in a row with odds of 0.3^11, about 2 in a million.
const SDK_OPTIONS = { maxRetries: 10, maxRetryAfterMs: 1_000 };

type Kind =
  | "listServers"
  | "listTokens"
  | "getToken"
  | "teamGuid"
  | "submit"
  | "deleteServer"
  | "deleteToken"
  | "createToken"
  | "connectServer"
  | "invite";
const SAFE: Kind[] = [
  "listServers",
  "listTokens",
  "getToken",
  "teamGuid",
  "submit",
  "deleteServer",
  "deleteToken",
];
const UNSAFE: Kind[] = ["createToken", "connectServer", "invite"];

interface Outcome {
  kind: Kind;
  index: number;
  attempts: number;
  result: unknown;
  error: unknown;
}

let mock: RunningMockServer;
/** Made before faults are on, one for each delete call. */
let serverGuids: string[] = [];
let tokenIds: number[] = [];
const tally = { attempts: 0, injected503: 0, dropped: 0 };

/** The call list: fixed by the index, so every run makes the same calls (each kind ~1/10). */
const kindOf = (index: number): Kind => [...SAFE, ...UNSAFE][(index * 7) % 10] as Kind;

beforeAll(async () => {
  mock = await startMockServer({
    port: 0,
    clock: createClock({ frozenAt: Date.parse("2026-03-01T12:00:00+00:00") }),
    random: seededRandom(30),
  });
  mock.world.upsertPartner(1001, { rateLimitPerHour: 100_000 });
  const owner = new DashboardClient({ baseUrl: mock.dashboardBaseUrl, token: "mock-token-unrestricted" });
  const deletes = (kind: Kind) =>
    Array.from({ length: CALLS }, (_, i) => kindOf(i)).filter((k) => k === kind).length;
  serverGuids = (
    await owner.servers.connect(
      Array.from({ length: deletes("deleteServer") }, (_, i) => ({
        address: `https://doomed${i}.example.com`,
        product: "plesk",
      })),
    )
  ).map((server) => server.guid);
  tokenIds = [];
  for (let i = 0; i < deletes("deleteToken"); i++)
    tokenIds.push((await owner.apiTokens.create({ name: `doomed ${i}`, claims: [] })).id);
  mock.world.setFaults(FAULTS);
});

afterAll(() => mock?.close());

/** A fetch for one call: counts its attempts and what the faults did to them. */
function countingFetch() {
  const counter = { attempts: 0 };
  const fetch = async (request: Request): Promise<Response> => {
    counter.attempts++;
    tally.attempts++;
    try {
      const response = await globalThis.fetch(request);
      if (response.status === 503) tally.injected503++;
      return response;
    } catch (error) {
      tally.dropped++;
      throw error;
    }
  };
  return { counter, fetch };
}

async function run(index: number): Promise<Outcome> {
  const kind = kindOf(index);
  const { counter, fetch } = countingFetch();
  const dashboard = new DashboardClient({
    baseUrl: mock.dashboardBaseUrl,
    token: "mock-token-unrestricted",
    fetch,
    ...SDK_OPTIONS,
  });
  const rebuild = new RebuildClient({
    baseUrl: mock.rebuildBaseUrl,
    partnerId: 1001,
    apiKey: "mock-rebuild-key-1001",
    fetch,
    ...SDK_OPTIONS,
  });
  const nth = Math.floor(index / 10);
  const calls: Record<Kind, () => PromiseLike<unknown>> = {
    listServers: () => dashboard.servers.list({ pageSize: 5 }),
    listTokens: () => dashboard.apiTokens.list({ filter: "faulty" }),
    getToken: () => dashboard.apiTokens.get(1),
    teamGuid: () => dashboard.accounts.getTeamGuid("owner@example.com"),
    // Thirty sites, each submitted about three times: the repeats must find the first rebuild.
    submit: () => rebuild.submit({ sourceUrl: `https://site${nth % 30}.example.com/` }),
    deleteServer: () => dashboard.servers.delete(serverGuids[nth] ?? ""),
    deleteToken: () => dashboard.apiTokens.delete(tokenIds[nth] ?? 0),
    createToken: () => dashboard.apiTokens.create({ name: `faulty ${index}`, claims: [] }),
    connectServer: () =>
      dashboard.servers.connect([{ address: `https://faulty${index}.example.com`, product: "plesk" }]),
    invite: () => dashboard.accounts.sendInvitations([`faulty${index}@example.com`]),
  };
  let result: unknown;
  let error: unknown;
  try {
    result = await calls[kind]();
  } catch (thrown) {
    error = thrown;
  }
  return { kind, index, attempts: counter.attempts, result, error };
}

describe(`${CALLS} SDK calls while 30% of requests fail`, () => {
  const outcomes: Outcome[] = [];

  beforeAll(async () => {
    let next = 0;
    await Promise.all(
      Array.from({ length: LANES }, async () => {
        while (next < CALLS) outcomes.push(await run(next++));
      }),
    );
    mock.world.setFaults({ errorRate: 0, resetRate: 0, latencyMs: 0 });
  }, 120_000);

  it("the faults really happened: 503s and dropped connections, retried", () => {
    expect(outcomes).toHaveLength(CALLS);
    expect(tally.injected503).toBeGreaterThan(100);
    expect(tally.dropped).toBeGreaterThan(100);
    expect(tally.attempts).toBeGreaterThan(CALLS * 1.2);
  });

  it("every call that is safe to repeat succeeded", () => {
    const failed = outcomes.filter((o) => SAFE.includes(o.kind) && o.error !== undefined);
    expect(failed.map((o) => `${o.kind} #${o.index}: ${String(o.error)}`)).toEqual([]);
  });

  it("every call that must not be repeated was sent once; the failed ones surfaced a 503 or a lost connection", () => {
    const unsafe = outcomes.filter((o) => UNSAFE.includes(o.kind));
    expect(
      unsafe.filter((o) => o.attempts !== 1).map((o) => `${o.kind} #${o.index}: ${o.attempts} attempts`),
    ).toEqual([]);
    for (const { error } of unsafe.filter((o) => o.error !== undefined)) {
      const surfaced =
        error instanceof ConnectionError || (error instanceof ApiError && error.status === 503);
      expect(surfaced, String(error)).toBe(true);
    }
    expect(unsafe.filter((o) => o.error instanceof ConnectionError).length).toBeGreaterThan(0);
  });

  it("the world holds each unsafe call's effect exactly when it succeeded or its answer was lost", () => {
    // A lost answer (a reset) comes after the domain ran; a 503 comes before it.
    const happened = (kind: Kind) =>
      outcomes.filter((o) => o.kind === kind && (o.error === undefined || o.error instanceof ConnectionError))
        .length;
    const state = mock.world.state().dashboard;
    expect(state.tokens.filter((t) => t.name.startsWith("faulty ")).length).toBe(happened("createToken"));
    expect(state.servers.filter((s) => s.address.includes("faulty")).length).toBe(happened("connectServer"));
    expect(state.invitations.filter((i) => i.email.startsWith("faulty")).length).toBe(happened("invite"));
  });

  it("no rebuild was created twice, and every repeat answered with the first", () => {
    const submits = outcomes.filter((o) => o.kind === "submit");
    const urls = new Set(submits.map((o) => Math.floor(o.index / 10) % 30));
    const rebuilds = mock.world.state().rebuild.rebuilds.filter((r) => r.partnerId === 1001);
    expect(rebuilds).toHaveLength(urls.size);
    const requestIds = new Map<number, Set<unknown>>();
    for (const o of submits) {
      const site = Math.floor(o.index / 10) % 30;
      requestIds.set(
        site,
        (requestIds.get(site) ?? new Set()).add((o.result as { requestId: string }).requestId),
      );
    }
    expect([...requestIds.values()].every((ids) => ids.size === 1)).toBe(true);
  });

  it("every delete took effect", () => {
    const state = mock.world.state().dashboard;
    expect(state.servers.filter((s) => serverGuids.includes(s.guid))).toEqual([]);
    expect(state.tokens.filter((t) => tokenIds.includes(t.id))).toEqual([]);
  });
});
