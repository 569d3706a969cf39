import { describe, expect, it } from "vitest";
import { type ApiToken, PermissionDeniedError, type Server } from "../../../src/index.js";
import {
  DASHBOARD_URL,
  dashboardClient,
  recordingFetch,
  rejection,
  SEED_SERVERS,
  TOKEN,
  useMock,
} from "./harness.js";

useMock();

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const addresses = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => ({
    address: `https://srv${from + i}.example.com`,
    product: "plesk",
  }));

describe("servers.listAll", () => {
  it("yields all 253 servers in order with 3 page requests of 100", async () => {
    const { fetch, requests } = recordingFetch();
    const dashboard = dashboardClient(TOKEN.unrestricted, { fetch });
    // At most 100 per connect call.
    for (const [from, count] of [
      [0, 100],
      [100, 100],
      [200, 50],
    ] as const) {
      await dashboard.servers.connect(addresses(count, from));
    }
    requests.length = 0;

    const servers: Server[] = await collect(dashboard.servers.listAll());
    expect(servers).toHaveLength(253);
    expect(servers.map((s) => s.address)).toEqual([
      ...SEED_SERVERS.map((s) => s.address),
      ...addresses(250).map((s) => s.address),
    ]);
    expect(requests.map((r) => r.url)).toEqual(
      [1, 2, 3].map((page) => `${DASHBOARD_URL}/si/servers?page=${page}&pageSize=100`),
    );
  });

  it("uses the given pageSize", async () => {
    const { fetch, requests } = recordingFetch();
    const servers = await collect(
      dashboardClient(TOKEN.unrestricted, { fetch }).servers.listAll({ pageSize: 2 }),
    );
    expect(servers.map((s) => s.guid)).toEqual(SEED_SERVERS.map((s) => s.guid));
    expect(requests.map((r) => new URL(r.url).search)).toEqual(["?page=1&pageSize=2", "?page=2&pageSize=2"]);
  });

  it("is lazy: no request before iterating, and breaking out stops fetching", async () => {
    const { fetch, requests } = recordingFetch();
    const all = dashboardClient(TOKEN.unrestricted, { fetch }).servers.listAll({ pageSize: 1 });
    expect(requests).toHaveLength(0);
    for await (const server of all) {
      expect(server.guid).toBe(SEED_SERVERS[0].guid);
      break;
    }
    expect(requests).toHaveLength(1);
  });

  it("surfaces the first page's error from the loop", async () => {
    const error = await rejection(collect(dashboardClient(TOKEN.mcp).servers.listAll()));
    expect(error).toBeInstanceOf(PermissionDeniedError);
  });

  it("passes the signal to every page: aborting between pages rejects with an AbortError", async () => {
    const controller = new AbortController();
    const { fetch, requests } = recordingFetch();
    const seen: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const server of dashboardClient(TOKEN.unrestricted, { fetch }).servers.listAll(
          { pageSize: 1 },
          { signal: controller.signal },
        )) {
          seen.push(server.guid);
          controller.abort();
        }
      })(),
    );
    expect((error as DOMException).name).toBe("AbortError");
    expect(seen).toHaveLength(1);
    expect(requests).toHaveLength(1);
  });
});

describe("apiTokens.listAll", () => {
  it("yields every token matching filter, page after page, the filter on each request", async () => {
    const dashboard = dashboardClient(TOKEN.manage);
    for (let i = 0; i < 12; i++) {
      await dashboard.apiTokens.create({ name: `Bulk token ${i}`, claims: [{ name: "manage-api-tokens" }] });
    }
    await dashboard.apiTokens.create({ name: "Not in the filter", claims: [{ name: "manage-api-tokens" }] });

    const { fetch, requests } = recordingFetch();
    const tokens: ApiToken[] = await collect(
      dashboardClient(TOKEN.manage, { fetch }).apiTokens.listAll({ filter: "BULK", pageSize: 5 }),
    );
    expect(tokens.map((t) => t.name)).toEqual(Array.from({ length: 12 }, (_, i) => `Bulk token ${i}`));
    expect(requests.map((r) => Object.fromEntries(new URL(r.url).searchParams))).toEqual(
      ["1", "2", "3"].map((page) => ({ filter: "BULK", page, pageSize: "5" })),
    );
  });

  it("stops at totalCount: no request for an empty page when the count is a multiple of pageSize", async () => {
    const { fetch, requests } = recordingFetch();
    const tokens = await collect(
      dashboardClient(TOKEN.unrestricted, { fetch }).apiTokens.listAll({ pageSize: 4 }),
    );
    expect(tokens.map((t) => t.id)).toEqual([1, 3, 4, 5, 6, 7, 8, 9]);
    expect(requests).toHaveLength(2);
  });
});

// Issue 22.14: pages are numbered, so deleting items the loop has passed moves later ones onto pages
// it has already read. What README and listAll's TSDoc say, shown: the skip, and the two safe ways.
describe("listAll while items are deleted", () => {
  // Pages of 10 over 15 tokens: what pages of 100 do to 150, in a tenth of the requests.
  const PAGE = { filter: "bulk", pageSize: 10 } as const;
  async function bulk(count: number) {
    const dashboard = dashboardClient(TOKEN.manage);
    for (let i = 0; i < count; i++) {
      await dashboard.apiTokens.create({ name: `Bulk ${i}`, claims: [{ name: "manage-api-tokens" }] });
    }
    return dashboard;
  }
  const left = async (dashboard: ReturnType<typeof dashboardClient>) =>
    (await dashboard.apiTokens.list({ filter: "bulk" })).totalCount;

  it("deleting each token as it is yielded skips tokens that existed throughout", async () => {
    const dashboard = await bulk(15);
    let deleted = 0;
    for await (const token of dashboard.apiTokens.listAll(PAGE)) {
      await dashboard.apiTokens.delete(token.id);
      deleted++;
    }
    expect(deleted).toBe(10);
    expect(await left(dashboard)).toBe(5);
  });

  it("safe: collect first (a snapshot of the list), then delete", async () => {
    const dashboard = await bulk(15);
    const tokens: ApiToken[] = [];
    for await (const token of dashboard.apiTokens.listAll(PAGE)) tokens.push(token);
    for (const token of tokens) await dashboard.apiTokens.delete(token.id);
    expect(tokens).toHaveLength(15);
    expect(await left(dashboard)).toBe(0);
  });

  it("safe: a re-check, listing again until a pass finds nothing left", async () => {
    const dashboard = await bulk(15);
    const passes: number[] = [];
    for (let found = -1; found !== 0; passes.push(found)) {
      found = 0;
      for await (const token of dashboard.apiTokens.listAll(PAGE)) {
        await dashboard.apiTokens.delete(token.id);
        found++;
      }
    }
    expect(passes).toEqual([10, 5, 0]);
    expect(await left(dashboard)).toBe(0);
  });
});
