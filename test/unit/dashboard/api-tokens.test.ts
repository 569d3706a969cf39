import { describe, expect, it } from "vitest";
import { hashSecret } from "../../../mocks/domain/dashboard/secrets.js";
import { expectCode, fieldErrors, q, setup, T0_TEXT } from "./helpers.js";

describe("api tokens", () => {
  it("lists only the caller's own tokens, by id ascending, in the wire shape", () => {
    const { domain, as } = setup();
    const owner = domain.listApiTokens(as("mock-token-manage"), q("pageSize=100"));
    expect(owner.totalCount).toBe(8);
    expect(owner.data.map((t) => t.id)).toEqual([1, 3, 4, 5, 6, 7, 8, 9]);
    expect(owner.data[0]).toEqual({
      id: 1,
      name: "Default unrestricted token",
      type: "user",
      claims: [],
      createdAt: "2026-01-01T00:00:00+00:00",
      lastUsedAt: null,
      expireAt: null,
    });
    expect(owner.data.find((t) => t.id === 5)?.claims).toEqual([
      {
        name: "mcp",
        readonly: false,
        attributes: { serverGuid: "5b1c3f0e-2a4d-4c6b-8e9f-0a1b2c3d4e01", panelUser: "admin" },
      },
    ]);
    const other = domain.listApiTokens(as("mock-token-other-user"), q());
    expect(other).toMatchObject({ totalCount: 1, data: [{ id: 2, lastUsedAt: T0_TEXT }] });
  });

  it("never shows a secret outside the creation result", () => {
    const { domain, as } = setup();
    const caller = as("mock-token-unrestricted");
    const created = domain.createApiToken(caller, { name: "fresh", claims: [] }).data;
    expect(created.token).toMatch(/^mck_[0-9a-f]{40}$/);
    expect(created.token.length).toBeGreaterThanOrEqual(32);
    const shown = [
      domain.getApiToken(caller, String(created.id)),
      domain.listApiTokens(caller, q("pageSize=100")),
      domain.state(),
    ].map((result) => JSON.stringify(result));
    for (const text of shown) {
      expect(text).not.toContain(created.token);
      expect(text).not.toContain(hashSecret(created.token));
      expect(text).not.toContain("mock-token-unrestricted");
      expect(text).not.toContain('"token"');
    }
  });

  it("creates tokens that never expire, of type user, with ids after the highest seeded one", async () => {
    const { domain, as, clock } = setup();
    const caller = as("mock-token-unrestricted");
    await clock.advance(2_500);
    const first = domain.createApiToken(caller, { name: "a", claims: [] }).data;
    expect(first).toEqual({
      id: 10,
      name: "a",
      type: "user",
      claims: [],
      createdAt: "2026-11-22T00:00:02+00:00",
      lastUsedAt: null,
      expireAt: null,
      token: first.token,
    });
    expect(Object.keys(first)).toEqual([
      "id",
      "name",
      "type",
      "claims",
      "createdAt",
      "lastUsedAt",
      "expireAt",
      "token",
    ]);
    domain.deleteApiToken(caller, "10");
    expect(domain.createApiToken(caller, { name: "b", claims: [] }).data.id).toBe(11);
  });

  it("generates distinct secrets", () => {
    const { domain, as } = setup();
    const caller = as("mock-token-unrestricted");
    const secrets = new Set(
      Array.from({ length: 50 }, () => domain.createApiToken(caller, { name: "n", claims: [] }).data.token),
    );
    expect(secrets.size).toBe(50);
  });

  it("reads a token by id; another user's or a malformed id is NOT_FOUND", () => {
    const { domain, as } = setup();
    const caller = as("mock-token-manage-readonly");
    expect(domain.getApiToken(caller, "3").data).toMatchObject({ id: 3, name: "Token manager" });
    for (const id of ["2", "0", "03", "-3", "+3", "3.0", "3e0", " 3", "", "abc", "99", "1".repeat(16)]) {
      expectCode(() => domain.getApiToken(caller, id), "NOT_FOUND");
    }
  });

  it("deletes only the caller's own tokens, and a token may delete itself", () => {
    const { domain, as } = setup();
    const manage = as("mock-token-manage");
    expectCode(() => domain.deleteApiToken(manage, "2"), "NOT_FOUND");
    expectCode(() => domain.deleteApiToken(manage, "03"), "NOT_FOUND");
    domain.deleteApiToken(manage, "9");
    expectCode(() => domain.getApiToken(manage, "9"), "NOT_FOUND");
    expectCode(() => domain.deleteApiToken(manage, "9"), "NOT_FOUND");
    domain.deleteApiToken(manage, "3");
    expectCode(() => domain.authenticate("Bearer mock-token-manage"), "UNAUTHORIZED");
    expect(domain.authenticate("Bearer mock-token-other-user").userId).toBe(2);
  });

  it("shows seeded expireAt and lastUsedAt in the contract's timestamp form", () => {
    const { domain, as } = setup();
    expect(domain.getApiToken(as("mock-token-unrestricted"), "9").data).toMatchObject({
      createdAt: "2025-12-01T00:00:00+00:00",
      expireAt: "2025-12-31T00:00:00+00:00",
      lastUsedAt: "2025-12-15T12:00:00+00:00",
    });
  });
});

describe("api token list query", () => {
  const { domain, as } = setup();
  const caller = as("mock-token-unrestricted");
  for (let i = 0; i < 25; i++) domain.createApiToken(caller, { name: `Batch ${i}`, claims: [] });
  const list = (query: string) => domain.listApiTokens(caller, q(query));

  it("defaults to page 1 of 10", () => {
    const page = list("");
    expect(page.totalCount).toBe(33);
    expect(page.data.map((t) => t.id)).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it("pages through in id order, with an empty page past the end", () => {
    expect(list("page=4").data.map((t) => t.id)).toEqual([32, 33, 34]);
    expect(list("page=5")).toEqual({ totalCount: 33, data: [] });
    expect(list("page=2147483647&pageSize=100")).toEqual({ totalCount: 33, data: [] });
    expect(list("pageSize=1&page=2").data.map((t) => t.id)).toEqual([3]);
    expect(list("pageSize=100").data).toHaveLength(33);
  });

  it("accepts leading zeros", () => {
    expect(list("page=002&pageSize=0005").data.map((t) => t.id)).toEqual([7, 8, 9, 10, 11]);
  });

  it.each([
    ["page=0", "too_small", "page"],
    ["page=2147483648", "too_big", "page"],
    ["page=99999999999999999999999", "too_big", "page"],
    ["pageSize=0", "too_small", "pageSize"],
    ["pageSize=000", "too_small", "pageSize"],
    ["pageSize=101", "too_big", "pageSize"],
    ["page=-1", "invalid_type", "page"],
    ["page=+1", "invalid_type", "page"],
    ["page=1.0", "invalid_type", "page"],
    ["page=1e1", "invalid_type", "page"],
    ["page=0x10", "invalid_type", "page"],
    ["page= 1", "invalid_type", "page"],
    ["page=１", "invalid_type", "page"],
    ["page=", "too_small", "page"],
    ["pageSize=", "too_small", "pageSize"],
    ["filter=", "too_small", "filter"],
    ["page=1&page=1", "duplicate", "page"],
    ["filter=a&filter=b", "duplicate", "filter"],
  ])("%s is a 400 %s at %s", (query, type, path) => {
    expect(fieldErrors(() => list(query))).toEqual([[type, path]]);
  });

  it("reports every bad parameter together", () => {
    expect(fieldErrors(() => list("page=0&pageSize=x&filter="))).toEqual([
      ["too_small", "page"],
      ["invalid_type", "pageSize"],
      ["too_small", "filter"],
    ]);
  });

  it("ignores unknown parameters", () => {
    expect(list("sort=name&PAGE=0").totalCount).toBe(33);
  });

  it("filters by case-insensitive substring of the name, totalCount counting matches", () => {
    const batch = list("filter=BATCH 1");
    expect(batch.totalCount).toBe(11);
    expect(batch.data.map((t) => t.name)).toEqual([
      "Batch 1",
      ...Array.from({ length: 9 }, (_, i) => `Batch ${10 + i}`),
    ]);
    expect(list("filter=batch 1&page=2").data.map((t) => t.name)).toEqual(["Batch 19"]);
    expect(list("filter=mcp").data.map((t) => t.id)).toEqual([5, 6, 7, 8]);
    expect(list("filter=nothing like this")).toEqual({ totalCount: 0, data: [] });
  });

  it("filter on a user sees only that user's tokens", () => {
    expect(
      domain.listApiTokens(as("mock-token-other-user"), q("filter=token")).data.map((t) => t.id),
    ).toEqual([2]);
  });
});

describe("snapshot", () => {
  it("holds the dashboard state without secrets or hashes", () => {
    const { domain } = setup();
    const snapshot = domain.state();
    expect(snapshot.teams).toEqual([
      { id: "team-a", guid: "3f2a7c1e-8b4d-4e6f-9a1b-2c3d4e5f6a7b" },
      { id: "team-b", guid: "9d8c7b6a-5e4f-4a3b-8c2d-1e0f9a8b7c6d" },
    ]);
    expect(snapshot.users).toEqual([
      { id: 1, email: "owner@example.com", team: "team-a" },
      { id: 2, email: "other@example.com", team: "team-b" },
    ]);
    expect(snapshot.tokens.map((t) => [t.id, t.userId])).toEqual([
      [1, 1],
      [2, 2],
      [3, 1],
      [4, 1],
      [5, 1],
      [6, 1],
      [7, 1],
      [8, 1],
      [9, 1],
    ]);
    expect(snapshot.servers).toHaveLength(3);
    expect(snapshot.invitations).toEqual([]);
    const text = JSON.stringify(snapshot);
    expect(text).not.toMatch(/mock-token-|secret|hash/i);
    expect(JSON.parse(text)).toEqual(snapshot);
  });
});
