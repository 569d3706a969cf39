// contract-decisions, Dashboard: tokens belong to a user, `lastUsedAt` on every authenticated
// request whatever its outcome, expired tokens 401, deleted tokens 401 at once, `token` only in the
// 201 of creation, `name` trimmed to 1–100 code points.
import { describe, expect, it } from "vitest";
import { TOKEN } from "../support/default-seed.js";
import { bearer, type Call, dashboardAs } from "./support/client.js";
import { expectError, expectFieldErrors } from "./support/expectations.js";
import { useMswMock } from "./support/harness.js";

const { world, call, control } = useMswMock();

interface TokenView {
  id: number;
  name: string;
  lastUsedAt: string | null;
  expireAt: string | null;
  createdAt: string;
}

/** A token's view as its owner (user 1) reads it with the unrestricted token. */
async function viewOf(id: number): Promise<TokenView> {
  const answer = await dashboardAs(call, TOKEN.unrestricted)<{ data: TokenView }>(
    "GET",
    `/dashboard/api-tokens/${id}`,
  );
  expect(answer.status).toBe(200);
  return answer.body.data;
}

describe("lastUsedAt is set on every authenticated request, whatever its outcome", () => {
  const asManager = bearer(TOKEN.manage);
  it.each([
    ["a success", { path: "/v1/dashboard/api-tokens" }, 200],
    ["a 403 (no server access)", { path: "/v1/si/servers" }, 403],
    ["a 400", { path: "/v1/dashboard/api-tokens?page=0" }, 400],
    ["a 404", { path: "/v1/dashboard/api-tokens/99" }, 404],
    [
      "a 415",
      { path: "/v1/dashboard/api-tokens", headers: { "content-type": "text/plain" }, body: "{}" },
      415,
    ],
    ["a 403 for breadth", { path: "/v1/dashboard/api-tokens", json: { name: "x", claims: [] } }, 403],
  ] as Array<[string, Call, number]>)("after %s", async (_, request, status) => {
    expect((await viewOf(3)).lastUsedAt).toBeNull();
    await world.clock.advance(90_000);
    const answer = await call({
      ...request,
      headers: { ...asManager, ...Object.fromEntries(new Headers(request.headers)) },
    });
    expect(answer.status).toBe(status);
    expect((await viewOf(3)).lastUsedAt).toBe("2026-03-01T12:01:30+00:00");
  });

  it("a 405 or 404 path is answered before authentication, so it does not count as a use", async () => {
    await dashboardAs(call, TOKEN.manage)("PUT", "/dashboard/api-tokens");
    await dashboardAs(call, TOKEN.manage)("GET", "/nowhere");
    expect((await viewOf(3)).lastUsedAt).toBeNull();
  });

  it("each use moves it forward, and the reading request stamps the reader too", async () => {
    await dashboardAs(call, TOKEN.manage)("GET", "/dashboard/api-tokens");
    await world.clock.advance(1000);
    await dashboardAs(call, TOKEN.manage)("GET", "/dashboard/api-tokens");
    expect((await viewOf(3)).lastUsedAt).toBe("2026-03-01T12:00:01+00:00");
    expect((await viewOf(1)).lastUsedAt).toBe("2026-03-01T12:00:01+00:00");
  });
});

describe("token validity", () => {
  it("an expired token (expireAt in the past) gets 401 and is not stamped", async () => {
    expectError(await dashboardAs(call, TOKEN.expired)("GET", "/si/servers"), 401, "UNAUTHORIZED");
    const view = await viewOf(9);
    expect(view).toMatchObject({
      expireAt: "2025-12-31T00:00:00+00:00",
      lastUsedAt: "2025-12-15T12:00:00+00:00",
    });
  });

  it("a deleted token stops working at once", async () => {
    const created = await dashboardAs(call, TOKEN.unrestricted)<{ data: { id: number; token: string } }>(
      "POST",
      "/dashboard/api-tokens",
      { name: "short-lived", claims: [] },
    );
    const secret = created.body.data.token;
    expect((await dashboardAs(call, secret)("GET", "/si/servers")).status).toBe(200);
    expect(
      (await dashboardAs(call, TOKEN.unrestricted)("DELETE", `/dashboard/api-tokens/${created.body.data.id}`))
        .status,
    ).toBe(204);
    expectError(await dashboardAs(call, secret)("GET", "/si/servers"), 401, "UNAUTHORIZED");
  });

  it("a token may delete itself, and its very next request gets 401", async () => {
    expect((await dashboardAs(call, TOKEN.manage)("DELETE", "/dashboard/api-tokens/3")).status).toBe(204);
    expectError(await dashboardAs(call, TOKEN.manage)("GET", "/dashboard/api-tokens"), 401, "UNAUTHORIZED");
    expectError(
      await dashboardAs(call, TOKEN.unrestricted)("GET", "/dashboard/api-tokens/3"),
      404,
      "NOT_FOUND",
    );
  });

  it("ids are never reused, deleted ones included", async () => {
    const asOwner = dashboardAs(call, TOKEN.unrestricted);
    const first = await asOwner<{ data: { id: number } }>("POST", "/dashboard/api-tokens", {
      name: "a",
      claims: [],
    });
    await asOwner("DELETE", `/dashboard/api-tokens/${first.body.data.id}`);
    const second = await asOwner<{ data: { id: number } }>("POST", "/dashboard/api-tokens", {
      name: "b",
      claims: [],
    });
    expect([first.body.data.id, second.body.data.id]).toEqual([10, 11]);
  });
});

describe("tokens belong to a user: list, read and delete see only the caller's own", () => {
  it("user 2 sees only its token; user 1's ids are 404 to it, and the other way round", async () => {
    const asOther = dashboardAs(call, TOKEN.otherUser);
    const list = await asOther<{ totalCount: number; data: Array<{ id: number }> }>(
      "GET",
      "/dashboard/api-tokens",
    );
    expect(list.body).toMatchObject({ totalCount: 1, data: [{ id: 2 }] });
    expectError(await asOther("GET", "/dashboard/api-tokens/1"), 404, "NOT_FOUND");
    expectError(await asOther("DELETE", "/dashboard/api-tokens/3"), 404, "NOT_FOUND");
    expectError(
      await dashboardAs(call, TOKEN.unrestricted)("GET", "/dashboard/api-tokens/2"),
      404,
      "NOT_FOUND",
    );
    // The failed delete removed nothing.
    expect((await dashboardAs(call, TOKEN.manage)("GET", "/dashboard/api-tokens")).status).toBe(200);
  });

  it("a token created by user 2 is listed for user 2 only", async () => {
    const created = await dashboardAs(call, TOKEN.otherUser)<{ data: { id: number } }>(
      "POST",
      "/dashboard/api-tokens",
      {
        name: "team B bot",
        claims: [{ name: "manage-api-tokens" }],
      },
    );
    const mine = await dashboardAs(call, TOKEN.otherUser)<{ data: Array<{ id: number }> }>(
      "GET",
      "/dashboard/api-tokens",
    );
    expect(mine.body.data.map((t) => t.id)).toEqual([2, created.body.data.id]);
    const theirs = await dashboardAs(call, TOKEN.unrestricted)<{ data: Array<{ id: number }> }>(
      "GET",
      "/dashboard/api-tokens?pageSize=100",
    );
    expect(theirs.body.data.map((t) => t.id)).not.toContain(created.body.data.id);
  });
});

describe("the secret appears only in the 201 of creation", () => {
  it("creation returns token (≥ 32 characters); list, read and state never do", async () => {
    const created = await dashboardAs(call, TOKEN.unrestricted)<{
      data: TokenView & { token: string; type: string; claims: unknown[] };
    }>("POST", "/dashboard/api-tokens", { name: "CI", claims: [] });
    expect(created.status).toBe(201);
    const { token, ...rest } = created.body.data;
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(rest).toEqual({
      id: 10,
      name: "CI",
      type: "user",
      claims: [],
      createdAt: "2026-03-01T12:00:00+00:00",
      lastUsedAt: null,
      expireAt: null,
    });
    const read = await dashboardAs(call, token)("GET", "/dashboard/api-tokens/10");
    const list = await dashboardAs(call, token)("GET", "/dashboard/api-tokens?pageSize=100");
    for (const body of [read.body, list.body, await control.state()]) {
      expect(JSON.stringify(body)).not.toContain(token);
    }
    expect(read.body).not.toHaveProperty("data.token");
  });
});

describe("name: trimmed, 1 to 100 code points", () => {
  const create = (name: unknown) =>
    dashboardAs(call, TOKEN.unrestricted)<{ data: { name: string } }>("POST", "/dashboard/api-tokens", {
      name,
      claims: [],
    });

  it("is stored trimmed", async () => {
    expect((await create("  \t deploy bot \n")).body.data.name).toBe("deploy bot");
  });

  it("counts code points, not UTF-16 units", async () => {
    expect((await create("🚀".repeat(100))).status).toBe(201);
    expectFieldErrors(await create("🚀".repeat(101)), [{ type: "invalid_format", path: "name" }]);
    expect((await create(` ${"x".repeat(100)} `)).status).toBe(201);
  });

  it.each([
    ["empty", "", "too_small"],
    ["whitespace only", "   ", "invalid_format"],
    ["not a string", 42, "invalid_type"],
    ["null", null, "invalid_type"],
  ])("%s gets 400 %s", async (_, name, type) => {
    expectFieldErrors(await create(name), [{ type, path: "name" }]);
  });

  it("name and claims are both required", async () => {
    expectFieldErrors(await dashboardAs(call, TOKEN.unrestricted)("POST", "/dashboard/api-tokens", {}), [
      { type: "required", path: "name" },
      { type: "required", path: "claims" },
    ]);
  });

  it("there is no expireAt field: tokens created through the API never expire", async () => {
    expectFieldErrors(
      await dashboardAs(call, TOKEN.unrestricted)("POST", "/dashboard/api-tokens", {
        name: "x",
        claims: [],
        expireAt: "2030-01-01T00:00:00+00:00",
      }),
      [{ type: "unknown_field", path: "expireAt" }],
    );
  });
});
