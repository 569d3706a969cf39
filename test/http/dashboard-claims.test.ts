// contract-decisions, "Claims and authorization", rules 1 to 6, through HTTP.
import { describe, expect, it } from "vitest";
import { SERVER_1, SERVER_2, TOKEN } from "../support/default-seed.js";
import { dashboardAs } from "./support/client.js";
import { expectError, expectFieldErrors } from "./support/expectations.js";
import { useMswMock } from "./support/harness.js";

const { call } = useMswMock();

interface CreatedToken {
  data: { id: number; token: string; claims: Array<Record<string, unknown>> };
}

/** One request per dashboard operation; ids and GUIDs exist so only authorization can fail. */
const OPERATIONS = {
  listServers: ["GET", "/si/servers"],
  connectServers: [
    "POST",
    "/si/servers",
    { servers: [{ address: "https://n.example.com", product: "plesk" }] },
  ],
  deleteServer: ["DELETE", `/si/servers/${SERVER_2}`],
  listApiTokens: ["GET", "/dashboard/api-tokens"],
  createApiToken: ["POST", "/dashboard/api-tokens", { name: "new", claims: [{ name: "manage-api-tokens" }] }],
  getApiToken: ["GET", "/dashboard/api-tokens/4"],
  deleteApiToken: ["DELETE", "/dashboard/api-tokens/4"],
  sendInvitations: ["POST", "/accounts/invitations", { emails: ["new@example.com"] }],
  getTeamGuid: ["GET", "/accounts/team-guid?email=owner@example.com"],
} as const satisfies Record<string, readonly [string, string, unknown?]>;

type Operation = keyof typeof OPERATIONS;

async function statusOf(token: string, operation: Operation): Promise<number> {
  const [method, path, body] = OPERATIONS[operation];
  return (await dashboardAs(call, token)(method, path, body)).status;
}

const SUCCESS: Record<Operation, number> = {
  listServers: 200,
  connectServers: 201,
  deleteServer: 204,
  listApiTokens: 200,
  createApiToken: 201,
  getApiToken: 200,
  deleteApiToken: 204,
  sendInvitations: 202,
  getTeamGuid: 200,
};
const ALL = Object.keys(SUCCESS) as Operation[];

describe("claims and authorization", () => {
  it.each(ALL)("rule 1: a token without claims may call every operation (%s)", async (operation) => {
    expect(await statusOf(TOKEN.unrestricted, operation)).toBe(SUCCESS[operation]);
  });

  const NO_CLAIM_OPERATIONS: Operation[] = [
    "listServers",
    "connectServers",
    "deleteServer",
    "sendInvitations",
    "getTeamGuid",
  ];
  it.each(
    NO_CLAIM_OPERATIONS.flatMap((operation) =>
      [TOKEN.manage, TOKEN.mcp, TOKEN.manageMcp].map((token) => [operation, token] as const),
    ),
  )(
    "rule 2: server inventory and accounts need an unrestricted token: %s with %s is 403",
    async (operation, token) => {
      const [method, path, body] = OPERATIONS[operation];
      expectError(await dashboardAs(call, token)(method, path, body), 403, "FORBIDDEN");
    },
  );

  it.each(["listApiTokens", "createApiToken", "getApiToken", "deleteApiToken"] as const)(
    "rule 2: the token endpoints need manage-api-tokens: %s with only mcp is 403",
    async (operation) => {
      expect(await statusOf(TOKEN.mcp, operation)).toBe(403);
      expect(await statusOf(TOKEN.mcpReadonly, operation)).toBe(403);
      expect(await statusOf(TOKEN.manage, operation)).toBe(SUCCESS[operation]);
    },
  );

  it("rule 3: a read-only manage-api-tokens claim may list and read, not create or delete", async () => {
    expect(await statusOf(TOKEN.manageReadonly, "listApiTokens")).toBe(200);
    expect(await statusOf(TOKEN.manageReadonly, "getApiToken")).toBe(200);
    expect(await statusOf(TOKEN.manageReadonly, "createApiToken")).toBe(403);
    expect(await statusOf(TOKEN.manageReadonly, "deleteApiToken")).toBe(403);
    const self = await dashboardAs(call, TOKEN.manageReadonly)("DELETE", "/dashboard/api-tokens/4");
    expectError(self, 403, "FORBIDDEN");
  });

  it("rule 4: a caller holding a read-only mcp claim cannot create a token, even a narrow one", async () => {
    const asCaller = dashboardAs(call, TOKEN.manageMcpReadonly);
    expectError(
      await asCaller("POST", "/dashboard/api-tokens", {
        name: "narrow",
        claims: [{ name: "mcp", readonly: true, attributes: { serverGuid: SERVER_1, panelUser: "admin" } }],
      }),
      403,
      "FORBIDDEN",
    );
    // It may still list, read and delete.
    expect(await statusOf(TOKEN.manageMcpReadonly, "listApiTokens")).toBe(200);
    expect(await statusOf(TOKEN.manageMcpReadonly, "deleteApiToken")).toBe(204);
  });

  describe("rule 5: a new token may not be broader than its creator", () => {
    const create = (token: string, claims: unknown[]) =>
      dashboardAs(call, token)<CreatedToken>("POST", "/dashboard/api-tokens", { name: "child", claims });

    it("an unrestricted caller may create anything, an unrestricted token included", async () => {
      expect((await create(TOKEN.unrestricted, [])).status).toBe(201);
      expect(
        (await create(TOKEN.unrestricted, [{ name: "mcp" }, { name: "manage-api-tokens" }])).status,
      ).toBe(201);
    });

    it("a caller with claims may not create an unrestricted token (claims: [])", async () => {
      expectError(await create(TOKEN.manage, []), 403, "FORBIDDEN");
      expectError(await create(TOKEN.manageMcp, []), 403, "FORBIDDEN");
    });

    it.each([
      ["manage-api-tokens covers manage-api-tokens", TOKEN.manage, [{ name: "manage-api-tokens" }], 201],
      [
        "manage-api-tokens covers a read-only one",
        TOKEN.manage,
        [{ name: "manage-api-tokens", readonly: true }],
        201,
      ],
      ["manage-api-tokens does not cover mcp", TOKEN.manage, [{ name: "mcp" }], 403],
      [
        "mcp on a server covers mcp on that server",
        TOKEN.manageMcp,
        [{ name: "mcp", attributes: { serverGuid: SERVER_1 } }],
        201,
      ],
      [
        "the server GUID is compared case-insensitively",
        TOKEN.manageMcp,
        [{ name: "mcp", attributes: { serverGuid: SERVER_1.toUpperCase() } }],
        201,
      ],
      [
        "mcp on a server covers one panel user there",
        TOKEN.manageMcp,
        [{ name: "mcp", attributes: { serverGuid: SERVER_1, panelUser: "bob" } }],
        201,
      ],
      [
        "mcp on a server covers its read-only form",
        TOKEN.manageMcp,
        [{ name: "mcp", readonly: true, attributes: { serverGuid: SERVER_1 } }],
        201,
      ],
      [
        "both claims, each covered",
        TOKEN.manageMcp,
        [{ name: "manage-api-tokens" }, { name: "mcp", attributes: { serverGuid: SERVER_1 } }],
        201,
      ],
      ["mcp on a server does not cover every server", TOKEN.manageMcp, [{ name: "mcp" }], 403],
      [
        "mcp on a server does not cover every server, attributes {}",
        TOKEN.manageMcp,
        [{ name: "mcp", attributes: {} }],
        403,
      ],
      [
        "mcp on a server does not cover another server",
        TOKEN.manageMcp,
        [{ name: "mcp", attributes: { serverGuid: SERVER_2 } }],
        403,
      ],
      [
        "one uncovered claim makes the request broader",
        TOKEN.manageMcp,
        [{ name: "manage-api-tokens" }, { name: "mcp", attributes: { serverGuid: SERVER_2 } }],
        403,
      ],
    ])("%s", async (_, token, claims, status) => {
      const answer = await create(token, claims);
      expect(answer.status).toBe(status);
      if (status === 403) expectError(answer, 403, "FORBIDDEN");
    });

    it("a token created with a panel user may in turn create only that panel user's tokens", async () => {
      const parent = await create(TOKEN.manageMcp, [
        { name: "manage-api-tokens" },
        { name: "mcp", attributes: { serverGuid: SERVER_1, panelUser: "bob" } },
      ]);
      const child = (panelUser?: string) =>
        create(parent.body.data.token, [
          {
            name: "mcp",
            attributes: { serverGuid: SERVER_1, ...(panelUser === undefined ? {} : { panelUser }) },
          },
        ]);
      expect((await child("bob")).status).toBe(201);
      expect((await child("alice")).status).toBe(403);
      expect((await child()).status).toBe(403);
    });
  });

  describe("rule 6: claim shapes", () => {
    const create = (claims: unknown) =>
      dashboardAs(call, TOKEN.unrestricted)<CreatedToken>("POST", "/dashboard/api-tokens", {
        name: "t",
        claims,
      });

    it("serverGuid is returned in lower case; every claim carries readonly, mcp carries attributes", async () => {
      const answer = await create([
        { name: "mcp", attributes: { serverGuid: SERVER_1.toUpperCase(), panelUser: "Admin" } },
        { name: "manage-api-tokens", attributes: {} },
      ]);
      expect(answer.body.data.claims).toEqual([
        { name: "mcp", readonly: false, attributes: { serverGuid: SERVER_1, panelUser: "Admin" } },
        { name: "manage-api-tokens", readonly: false },
      ]);
      expect((await create([{ name: "mcp" }])).body.data.claims).toEqual([
        { name: "mcp", readonly: false, attributes: {} },
      ]);
    });

    it.each([
      [
        "serverGuid not a GUID",
        [{ name: "mcp", attributes: { serverGuid: "srv1" } }],
        "invalid_format",
        "claims.0.attributes.serverGuid",
      ],
      [
        "serverGuid not a string",
        [{ name: "mcp", attributes: { serverGuid: 1 } }],
        "invalid_type",
        "claims.0.attributes.serverGuid",
      ],
      [
        "panelUser without serverGuid",
        [{ name: "mcp", attributes: { panelUser: "bob" } }],
        "required",
        "claims.0.attributes.serverGuid",
      ],
      [
        "panelUser empty",
        [{ name: "mcp", attributes: { serverGuid: SERVER_1, panelUser: "" } }],
        "too_small",
        "claims.0.attributes.panelUser",
      ],
      [
        "panelUser not a string",
        [{ name: "mcp", attributes: { serverGuid: SERVER_1, panelUser: null } }],
        "invalid_type",
        "claims.0.attributes.panelUser",
      ],
      [
        "an unknown mcp attribute",
        [{ name: "mcp", attributes: { server: SERVER_1 } }],
        "unknown_field",
        "claims.0.attributes.server",
      ],
      [
        "manage-api-tokens with attributes",
        [{ name: "manage-api-tokens", attributes: { serverGuid: SERVER_1 } }],
        "unknown_field",
        "claims.0.attributes.serverGuid",
      ],
      ["attributes not an object", [{ name: "mcp", attributes: [] }], "invalid_type", "claims.0.attributes"],
      ["readonly not a boolean", [{ name: "mcp", readonly: "yes" }], "invalid_type", "claims.0.readonly"],
      ["an unknown claim name", [{ name: "admin" }], "invalid_value", "claims.0.name"],
      ["a claim without a name", [{ readonly: true }], "required", "claims.0.name"],
      ["an unknown claim field", [{ name: "mcp", scope: "all" }], "unknown_field", "claims.0.scope"],
      ["a claim that is not an object", ["mcp"], "invalid_type", "claims.0"],
      ["claims not an array", { name: "mcp" }, "invalid_type", "claims"],
      [
        "the same claim name twice: duplicate at the second",
        [{ name: "manage-api-tokens" }, { name: "mcp" }, { name: "manage-api-tokens", readonly: true }],
        "duplicate",
        "claims.2",
      ],
    ])("%s gets 400 %s at %s", async (_, claims, type, path) => {
      expectFieldErrors(await create(claims), [{ type, path }]);
    });
  });
});
