import { describe, expect, it } from "vitest";
import { APIPromise, AuthenticationError, NotFoundError } from "../../../src/index.js";
import {
  DASHBOARD_URL,
  dashboardClient,
  rebuildClient,
  recordingFetch,
  rejection,
  SEED_SERVERS,
  TEAM_A_GUID,
  TEAM_B_GUID,
  TOKEN,
  USER_1_TOKEN_IDS,
  useMock,
} from "./harness.js";

useMock();

describe("servers", () => {
  it("list: the team's servers in connection order, with the total", async () => {
    const dashboard = dashboardClient();
    const call = dashboard.servers.list();
    expect(call).toBeInstanceOf(APIPromise);
    const { totalCount, data } = await call;
    expect(totalCount).toBe(3);
    expect(data).toEqual([
      { ...SEED_SERVERS[0], product: "plesk", active: true },
      { ...SEED_SERVERS[1], product: "plesk", active: true },
      { ...SEED_SERVERS[2], product: "cpanel", active: false },
    ]);
  });

  it("list: page and pageSize go in the query", async () => {
    const { fetch, requests } = recordingFetch();
    const page = await dashboardClient(TOKEN.unrestricted, { fetch }).servers.list({ page: 2, pageSize: 2 });
    expect(page).toEqual({ totalCount: 3, data: [expect.objectContaining({ guid: SEED_SERVERS[2].guid })] });
    expect(requests[0]?.url).toBe(`${DASHBOARD_URL}/si/servers?page=2&pageSize=2`);
  });

  it("list: another team sees its own (empty) inventory", async () => {
    await expect(dashboardClient(TOKEN.otherUser).servers.list()).resolves.toEqual({
      totalCount: 0,
      data: [],
    });
  });

  it("connect: the new servers, active, in request order; they are listed after the others", async () => {
    const dashboard = dashboardClient();
    const servers = await dashboard.servers.connect([
      { address: "https://new1.example.com:8443", product: "plesk" },
      { address: "https://new2.example.com", product: "cpanel" },
    ]);
    expect(servers).toEqual([
      {
        guid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        address: "https://new1.example.com:8443",
        product: "plesk",
        active: true,
      },
      {
        guid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        address: "https://new2.example.com",
        product: "cpanel",
        active: true,
      },
    ]);
    const { totalCount, data } = await dashboard.servers.list();
    expect(totalCount).toBe(5);
    expect(data.slice(3)).toEqual(servers);
  });

  it("delete: resolves to undefined and removes the server (GUIDs match case-insensitively)", async () => {
    const dashboard = dashboardClient();
    await expect(dashboard.servers.delete(SEED_SERVERS[1].guid.toUpperCase())).resolves.toBeUndefined();
    const { data } = await dashboard.servers.list();
    expect(data.map((s) => s.guid)).toEqual([SEED_SERVERS[0].guid, SEED_SERVERS[2].guid]);
    expect(await rejection(dashboard.servers.delete(SEED_SERVERS[1].guid))).toBeInstanceOf(NotFoundError);
  });

  it("delete: the GUID is percent-encoded as one path segment", async () => {
    const { fetch, requests } = recordingFetch();
    const error = await rejection(dashboardClient(TOKEN.unrestricted, { fetch }).servers.delete("a/b?c=1#d"));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(requests[0]?.url).toBe(`${DASHBOARD_URL}/si/servers/a%2Fb%3Fc%3D1%23d`);
  });

  it.each(["", ".", ".."])(
    "delete(%j) is refused before any request: it would address another path",
    async (guid) => {
      const { fetch, requests } = recordingFetch();
      const error = await rejection(dashboardClient(TOKEN.unrestricted, { fetch }).servers.delete(guid));
      expect(error).toBeInstanceOf(TypeError);
      expect(requests).toHaveLength(0);
    },
  );
});

describe("apiTokens", () => {
  it("list: the caller's tokens by ascending id, never with a secret", async () => {
    const { totalCount, data } = await dashboardClient().apiTokens.list();
    expect(totalCount).toBe(USER_1_TOKEN_IDS.length);
    expect(data.map((t) => t.id)).toEqual(USER_1_TOKEN_IDS);
    expect(data[0]).toEqual({
      id: 1,
      name: "Default unrestricted token",
      type: "user",
      claims: [],
      createdAt: "2026-01-01T00:00:00+00:00",
      lastUsedAt: "2026-11-22T00:00:00+00:00",
      expireAt: null,
    });
    for (const token of data) expect(token).not.toHaveProperty("token");
  });

  it("list: filter is a case-insensitive substring of the name; totalCount counts the matches", async () => {
    const { fetch, requests } = recordingFetch();
    const page = await dashboardClient(TOKEN.manage, { fetch }).apiTokens.list({
      filter: "mcp",
      pageSize: 3,
    });
    expect(page.totalCount).toBe(4);
    expect(page.data.map((t) => t.id)).toEqual([5, 6, 7]);
    expect(requests[0]?.url).toBe(`${DASHBOARD_URL}/dashboard/api-tokens?filter=mcp&pageSize=3`);
  });

  it("create: the new token with its secret, which then works", async () => {
    const dashboard = dashboardClient();
    const created = await dashboard.apiTokens.create({
      name: "  CI deploy  ",
      claims: [
        { name: "mcp", readonly: true, attributes: { serverGuid: SEED_SERVERS[0].guid.toUpperCase() } },
      ],
    });
    expect(created).toEqual({
      id: 10,
      name: "CI deploy",
      type: "user",
      claims: [{ name: "mcp", readonly: true, attributes: { serverGuid: SEED_SERVERS[0].guid } }],
      createdAt: "2026-11-22T00:00:00+00:00",
      lastUsedAt: null,
      expireAt: null,
      token: expect.any(String),
    });
    expect(created.token.length).toBeGreaterThanOrEqual(32);

    const unrestricted = await dashboard.apiTokens.create({ name: "Automation", claims: [] });
    await expect(dashboardClient(unrestricted.token).servers.list()).resolves.toMatchObject({
      totalCount: 3,
    });
  });

  it("get: the token itself, without envelope or secret", async () => {
    const token = await dashboardClient().apiTokens.get(3);
    expect(token).toEqual({
      id: 3,
      name: "Token manager",
      type: "user",
      claims: [{ name: "manage-api-tokens", readonly: false }],
      createdAt: "2026-01-01T00:00:00+00:00",
      lastUsedAt: null,
      expireAt: null,
    });
  });

  it("get: another user's token is not found", async () => {
    expect(await rejection(dashboardClient().apiTokens.get(2))).toBeInstanceOf(NotFoundError);
  });

  it("delete: resolves to undefined; the token is gone and stops working at once", async () => {
    const dashboard = dashboardClient(TOKEN.manage);
    const { id, token } = await dashboard.apiTokens.create({
      name: "short-lived",
      claims: [{ name: "manage-api-tokens" }],
    });
    await expect(dashboard.apiTokens.delete(id)).resolves.toBeUndefined();
    expect(await rejection(dashboard.apiTokens.get(id))).toBeInstanceOf(NotFoundError);
    expect(await rejection(dashboardClient(token).apiTokens.list())).toBeInstanceOf(AuthenticationError);
  });

  it("delete: a token may delete itself", async () => {
    const self = dashboardClient(TOKEN.manage);
    await self.apiTokens.delete(3);
    expect(await rejection(self.apiTokens.list())).toBeInstanceOf(AuthenticationError);
  });
});

describe("accounts", () => {
  it("sendInvitations: one result per address, in order", async () => {
    const invitations = await dashboardClient().accounts.sendInvitations([
      "alice@example.com",
      "Bob@Example.org",
    ]);
    expect(invitations).toEqual([
      { email: "alice@example.com", status: "sent" },
      { email: "Bob@Example.org", status: "sent" },
    ]);
  });

  it("getTeamGuid: the GUID string of a user's team, of an invited address's team", async () => {
    const owner = dashboardClient();
    await expect(owner.accounts.getTeamGuid("owner@example.com")).resolves.toBe(TEAM_A_GUID);
    await expect(owner.accounts.getTeamGuid("OTHER@example.com")).resolves.toBe(TEAM_B_GUID);
    await owner.accounts.sendInvitations(["new.member+tag@example.com"]);
    await expect(owner.accounts.getTeamGuid("New.Member+tag@example.com")).resolves.toBe(TEAM_A_GUID);
  });

  it("getTeamGuid: the email is a query parameter, `+` and `@` encoded", async () => {
    const { fetch, requests } = recordingFetch();
    const error = await rejection(
      dashboardClient(TOKEN.unrestricted, { fetch }).accounts.getTeamGuid("a+b@example.com"),
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect(requests[0]?.url).toBe(`${DASHBOARD_URL}/accounts/team-guid?email=a%2Bb%40example.com`);
  });
});

describe("withResponse", () => {
  it("gives the status and headers next to the data, for every kind of call", async () => {
    const dashboard = dashboardClient();
    const list = await dashboard.servers.list().withResponse();
    expect(list.response.status).toBe(200);
    expect(list.response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(list.data.totalCount).toBe(3);

    const connected = await dashboard.servers
      .connect([{ address: "https://x.example.com", product: "plesk" }])
      .withResponse();
    expect(connected.response.status).toBe(201);
    expect(connected.data).toHaveLength(1);

    const created = await dashboard.apiTokens.create({ name: "with response", claims: [] }).withResponse();
    expect(created.response.status).toBe(201);
    expect(created.data.token).toEqual(expect.any(String));

    const got = await dashboard.apiTokens.get(created.data.id).withResponse();
    expect([got.response.status, got.data.name]).toEqual([200, "with response"]);

    const deleted = await dashboard.apiTokens.delete(created.data.id).withResponse();
    expect([deleted.response.status, deleted.data]).toEqual([204, undefined]);

    const invited = await dashboard.accounts.sendInvitations(["carol@example.com"]).withResponse();
    expect([invited.response.status, invited.data]).toEqual([
      202,
      [{ email: "carol@example.com", status: "sent" }],
    ]);

    const team = await dashboard.accounts.getTeamGuid("carol@example.com").withResponse();
    expect([team.response.status, team.data]).toEqual([200, TEAM_A_GUID]);

    const submitted = await rebuildClient().submit({ sourceUrl: "https://www.example.com/" }).withResponse();
    expect(submitted.response.status).toBe(202);
    expect(submitted.data.created).toBe(true);
    expect(
      Object.fromEntries(
        ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"].map((h) => [
          h,
          submitted.response.headers.get(h),
        ]),
      ),
    ).toEqual({
      "ratelimit-limit": "30",
      "ratelimit-remaining": "29",
      "ratelimit-reset": "3600",
    });
  });

  it("and awaiting the same call gives the same data", async () => {
    const call = dashboardClient().accounts.getTeamGuid("owner@example.com");
    const [data, withResponse] = await Promise.all([call, call.withResponse()]);
    expect(withResponse.data).toBe(data);
  });
});
