import { describe, expect, it } from "vitest";
import {
  ConnectionError,
  type DashboardClient,
  InternalServerError,
  type RebuildClient,
  TimeoutError,
} from "../../../src/index.js";
import {
  closedPort,
  collectingLogger,
  control,
  dashboardClient,
  faultsOffFrom,
  rebuildClient,
  recordingFetch,
  rejection,
  SEED_SERVERS,
  setFaults,
  TOKEN,
  useMock,
} from "./harness.js";

const { world } = useMock();

type Clients = { dashboard: DashboardClient; rebuild: RebuildClient };

// Every safe operation (reads, deletes, the idempotent submission), with what it resolves to.
const safeCalls: [string, (c: Clients) => PromiseLike<unknown>, unknown][] = [
  ["servers.list", (c) => c.dashboard.servers.list(), expect.objectContaining({ totalCount: 3 })],
  ["servers.delete", (c) => c.dashboard.servers.delete(SEED_SERVERS[0].guid), undefined],
  ["apiTokens.list", (c) => c.dashboard.apiTokens.list(), expect.objectContaining({ totalCount: 8 })],
  ["apiTokens.get", (c) => c.dashboard.apiTokens.get(3), expect.objectContaining({ id: 3 })],
  ["apiTokens.delete", (c) => c.dashboard.apiTokens.delete(4), undefined],
  ["accounts.getTeamGuid", (c) => c.dashboard.accounts.getTeamGuid("owner@example.com"), expect.any(String)],
  [
    "rebuild.submit",
    (c) => c.rebuild.submit({ sourceUrl: "https://a.example.com/" }),
    expect.objectContaining({ created: true }),
  ],
];

// Every unsafe operation, and how many of what it creates exist afterwards.
const unsafeCalls: [string, (c: Clients) => PromiseLike<unknown>, () => number][] = [
  [
    "servers.connect",
    (c) => c.dashboard.servers.connect([{ address: "https://once.example.com", product: "plesk" }]),
    () => countServers("https://once.example.com"),
  ],
  [
    "apiTokens.create",
    (c) => c.dashboard.apiTokens.create({ name: "exactly once", claims: [] }),
    () => countTokens("exactly once"),
  ],
  [
    "accounts.sendInvitations",
    (c) => c.dashboard.accounts.sendInvitations(["once@example.com"]),
    () => countInvitations("once@example.com"),
  ],
];

function countServers(address: string): number {
  return world.state().dashboard.servers.filter((s) => s.address === address).length;
}
function countTokens(name: string): number {
  return world.state().dashboard.tokens.filter((t) => t.name === name).length;
}
function countInvitations(email: string): number {
  return world.state().dashboard.invitations.filter((i) => i.email === email).length;
}

function clients(options: { fetch: (request: Request) => Promise<Response>; maxRetries?: number }): Clients {
  return { dashboard: dashboardClient(TOKEN.unrestricted, options), rebuild: rebuildClient(1001, options) };
}

describe("safe calls are retried", () => {
  it.each(safeCalls)("%s succeeds after two injected 503s", async (_, call, expected) => {
    await setFaults({ errorRate: 1 });
    const { fetch, requests } = recordingFetch(faultsOffFrom(world, 3));
    await expect(call(clients({ fetch, maxRetries: 2 }))).resolves.toEqual(expected);
    expect(requests).toHaveLength(3);
  });

  it("and give up after maxRetries, with the last error", async () => {
    await setFaults({ errorRate: 1 });
    const { fetch, requests } = recordingFetch();
    const error = await rejection(
      dashboardClient(TOKEN.unrestricted, { fetch, maxRetries: 2 }).servers.list(),
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect(requests).toHaveLength(3);
  });

  it("a read succeeds after a reset connection", async () => {
    await setFaults({ resetRate: 1 });
    const { fetch, requests } = recordingFetch(faultsOffFrom(world, 2));
    await expect(
      dashboardClient(TOKEN.unrestricted, { fetch, maxRetries: 1 }).apiTokens.get(1),
    ).resolves.toMatchObject({ id: 1 });
    expect(requests).toHaveLength(2);
  });

  it("a submission whose answer was lost is retried and finds the rebuild it created (created: false)", async () => {
    await setFaults({ resetRate: 1 });
    const { fetch, requests } = recordingFetch(faultsOffFrom(world, 2));
    const rebuild = await rebuildClient(1001, { fetch, maxRetries: 1 }).submit({
      sourceUrl: "https://lost.example.com/",
    });
    expect(requests).toHaveLength(2);
    // The first attempt started the rebuild; the retry is answered as a repeat.
    expect(rebuild).toMatchObject({ status: "running", created: false });
    expect(world.state().rebuild.rebuilds).toHaveLength(1);
  });

  it("a timed-out read is retried", async () => {
    await setFaults({ latencyMs: 200 });
    const { fetch, requests } = recordingFetch(faultsOffFrom(world, 2));
    const client = dashboardClient(TOKEN.unrestricted, { fetch, maxRetries: 1, timeoutMs: 100 });
    await expect(client.accounts.getTeamGuid("owner@example.com")).resolves.toEqual(expect.any(String));
    expect(requests).toHaveLength(2);
  });
});

describe("unsafe calls are not retried", () => {
  it.each(unsafeCalls)(
    "%s: an injected 503 surfaces at once and nothing was done",
    async (_, call, count) => {
      await setFaults({ errorRate: 1 });
      const { fetch, requests } = recordingFetch();
      const error = await rejection(call(clients({ fetch, maxRetries: 2 })));
      expect(error).toBeInstanceOf(InternalServerError);
      expect(requests).toHaveLength(1);
      expect(count()).toBe(0);
    },
  );

  it.each(unsafeCalls)(
    "%s: a reset after processing surfaces, and it was done exactly once",
    async (_, call, count) => {
      await setFaults({ resetRate: 1 });
      const { fetch, requests } = recordingFetch();
      const error = await rejection(call(clients({ fetch, maxRetries: 2 })));
      expect(error).toBeInstanceOf(ConnectionError);
      expect(requests).toHaveLength(1);
      expect(count()).toBe(1);
    },
  );

  it("but are when the connection was refused: the request certainly never left", async () => {
    const port = await closedPort();
    const { fetch, requests } = recordingFetch();
    const client = dashboardClient(TOKEN.unrestricted, {
      baseUrl: `http://127.0.0.1:${port}/v1`,
      fetch,
      maxRetries: 1,
    });
    const error = await rejection(client.apiTokens.create({ name: "refused", claims: [] }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(requests).toHaveLength(2);
  });

  it("apiTokens.create: a timeout surfaces at once", async () => {
    await setFaults({ latencyMs: 150 });
    const { fetch, requests } = recordingFetch();
    const client = dashboardClient(TOKEN.unrestricted, { fetch, maxRetries: 2, timeoutMs: 30 });
    const error = await rejection(client.apiTokens.create({ name: "slow", claims: [] }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(requests).toHaveLength(1);
  });
});

describe("abort", () => {
  it("during the wait before a retry: rejects at once with an AbortError", async () => {
    // Partner 1001 may send one request an hour; 3590 s later a second one is told to retry in 10 s.
    await control("PUT", "/partners/1001", { rateLimitPerHour: 1 });
    await rebuildClient().submit({ sourceUrl: "https://first.example.com/" });
    await world.clock.advance(3_590_000);

    const controller = new AbortController();
    const logger = collectingLogger();
    const { fetch, requests } = recordingFetch();
    const client = rebuildClient(1001, {
      fetch,
      maxRetries: 3,
      logger: {
        ...logger,
        // The retry line is logged right before the wait starts; abort once the wait is under way.
        info: (message) => {
          logger.info(message);
          setImmediate(() => controller.abort());
        },
      },
    });
    const started = Date.now();
    const error = await rejection(
      client.submit({ sourceUrl: "https://second.example.com/" }, { signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe("AbortError");
    expect(Date.now() - started).toBeLessThan(5000);
    expect(logger.lines.filter((line) => line.startsWith("info"))).toEqual([
      expect.stringMatching(/429 RATE_LIMIT_EXCEEDED.*retry 1 of 3 in 10000 ms/),
    ]);
    expect(requests).toHaveLength(1);
  });

  it("before the call: rejects without a request", async () => {
    const { fetch, requests } = recordingFetch();
    const error = await rejection(
      dashboardClient(TOKEN.unrestricted, { fetch }).servers.list({}, { signal: AbortSignal.abort() }),
    );
    expect((error as DOMException).name).toBe("AbortError");
    expect(requests).toHaveLength(0);
  });
});
