// contract-decisions, Dashboard: `page` and `pageSize` defaults, bounds and format, a page past the
// end, `totalCount` after `filter`, and ordering (tokens by id, servers in connection order).
import { describe, expect, it } from "vitest";
import { SERVER_1, SERVER_2, SERVER_3, TOKEN, USER_1_TOKEN_IDS } from "../support/default-seed.js";
import { dashboardAs } from "./support/client.js";
import { expectFieldErrors } from "./support/expectations.js";
import { useMswMock } from "./support/harness.js";

const { call } = useMswMock();
const asOwner = dashboardAs(call, TOKEN.unrestricted);

interface Page<Item> {
  totalCount: number;
  data: Item[];
}
type ServerPage = Page<{ guid: string; address: string }>;
type TokenPage = Page<{ id: number; name: string }>;

/** Connects `count` servers named srv-N.example.com, in order, in one call. */
async function connect(count: number, from = 1) {
  const servers = Array.from({ length: count }, (_, i) => ({
    address: `https://srv-${from + i}.example.com`,
    product: "plesk",
  }));
  const answer = await asOwner("POST", "/si/servers", { servers });
  expect(answer.status).toBe(201);
}

describe("pagination: page default 1, pageSize default 10, at most 100", () => {
  it("defaults: page 1 of 10 items", async () => {
    await connect(12);
    const first = await asOwner<ServerPage>("GET", "/si/servers");
    expect(first.body.totalCount).toBe(15);
    expect(first.body.data).toHaveLength(10);
    const second = await asOwner<ServerPage>("GET", "/si/servers?page=2");
    expect(second.body.data.map((s) => s.address)).toEqual(
      [8, 9, 10, 11, 12].map((n) => `https://srv-${n}.example.com`),
    );
  });

  it("pageSize 1 and 100 are the bounds; leading zeros are accepted", async () => {
    await connect(100);
    expect((await asOwner<ServerPage>("GET", "/si/servers?pageSize=100")).body.data).toHaveLength(100);
    expect((await asOwner<ServerPage>("GET", "/si/servers?pageSize=1&page=103")).body.data).toHaveLength(1);
    expect((await asOwner<ServerPage>("GET", "/si/servers?pageSize=007&page=0002")).body.data).toHaveLength(
      7,
    );
  });

  it.each([
    ["page=0", "too_small", "page"],
    ["pageSize=0", "too_small", "pageSize"],
    ["pageSize=101", "too_big", "pageSize"],
    ["page=2147483648", "too_big", "page"],
    ["page=99999999999999999999999", "too_big", "page"],
    ["page=-1", "invalid_type", "page"],
    ["page=%2B1", "invalid_type", "page"],
    ["page=1.0", "invalid_type", "page"],
    ["page=1e2", "invalid_type", "page"],
    ["page=0x10", "invalid_type", "page"],
    ["pageSize=ten", "invalid_type", "pageSize"],
    ["pageSize=%201", "invalid_type", "pageSize"],
    ["pageSize=%EF%BC%91", "invalid_type", "pageSize"],
  ])("%s gets 400 %s at %s (never clamped)", async (query, type, path) => {
    expectFieldErrors(await asOwner("GET", `/si/servers?${query}`), [{ type, path }]);
    expectFieldErrors(await dashboardAs(call, TOKEN.manage)("GET", `/dashboard/api-tokens?${query}`), [
      { type, path },
    ]);
  });

  it("a page past the end is 200 with data [] and the real totalCount", async () => {
    for (const page of ["2", "5", "2147483647"]) {
      const answer = await asOwner<ServerPage>("GET", `/si/servers?page=${page}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ totalCount: 3, data: [] });
    }
  });
});

describe("totalCount and filter", () => {
  const asManager = dashboardAs(call, TOKEN.manage);

  it("totalCount counts the caller's tokens across all pages", async () => {
    const answer = await asManager<TokenPage>("GET", "/dashboard/api-tokens?pageSize=3&page=2");
    expect(answer.body.totalCount).toBe(USER_1_TOKEN_IDS.length);
    expect(answer.body.data.map((t) => t.id)).toEqual(USER_1_TOKEN_IDS.slice(3, 6));
  });

  it.each([
    ["token", [1, 3, 4, 7, 8, 9]],
    ["TOKEN MANAGER", [3, 4, 7, 8]],
    ["mcp", [5, 6, 7, 8]],
    ["Read-Only", [4, 6, 8]],
    ["panel1", [5, 6, 7]],
    [" ", [1, 3, 4, 5, 6, 7, 8, 9]],
    ["no such name", []],
  ])(
    "filter %j is a case-insensitive substring of the name; totalCount counts the matches",
    async (filter, ids) => {
      const answer = await asManager<TokenPage>(
        "GET",
        `/dashboard/api-tokens?pageSize=2&filter=${encodeURIComponent(filter)}`,
      );
      expect(answer.body.totalCount).toBe(ids.length);
      expect(answer.body.data.map((t) => t.id)).toEqual(ids.slice(0, 2));
    },
  );

  it("filter compares lower-cased strings, so non-ASCII letters match across case", async () => {
    const created = await asManager<{ data: { id: number } }>("POST", "/dashboard/api-tokens", {
      name: "ÉQUIPE Straße",
      claims: [{ name: "manage-api-tokens" }],
    });
    const answer = await asManager<TokenPage>(
      "GET",
      `/dashboard/api-tokens?filter=${encodeURIComponent("équipe s")}`,
    );
    expect(answer.body).toMatchObject({ totalCount: 1, data: [{ id: created.body.data.id }] });
  });
});

describe("ordering", () => {
  it("tokens are listed by id ascending, new tokens last", async () => {
    const asManager = dashboardAs(call, TOKEN.manage);
    const ids: number[] = [];
    for (const name of ["zeta", "alpha", "mid"]) {
      const created = await asManager<{ data: { id: number } }>("POST", "/dashboard/api-tokens", {
        name,
        claims: [{ name: "manage-api-tokens" }],
      });
      ids.push(created.body.data.id);
    }
    expect(ids).toEqual([10, 11, 12]);
    const list = await asManager<TokenPage>("GET", "/dashboard/api-tokens?pageSize=100");
    expect(list.body.data.map((t) => t.id)).toEqual([...USER_1_TOKEN_IDS, 10, 11, 12]);
  });

  it("servers are listed in the order they were connected, a deleted one leaving no gap", async () => {
    await connect(2);
    await asOwner("DELETE", `/si/servers/${SERVER_2}`);
    await connect(1, 3);
    const list = await asOwner<ServerPage>("GET", "/si/servers");
    expect(list.body.data.map((s) => s.address)).toEqual([
      "https://panel1.example.com:8443",
      "https://panel3.example.com:2083",
      "https://srv-1.example.com",
      "https://srv-2.example.com",
      "https://srv-3.example.com",
    ]);
    expect(list.body.data.slice(0, 2).map((s) => s.guid)).toEqual([SERVER_1, SERVER_3]);
  });
});
