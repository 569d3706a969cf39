import { describe, expect, it } from "vitest";
import {
  type DashboardSeed,
  defaultDashboardSeed,
  formatTimestamp,
} from "../../../mocks/domain/dashboard/index.js";
import { setup, TEAM_B_GUID } from "./helpers.js";

const base: DashboardSeed = {
  teams: [{ id: "t", guid: "00000000-0000-4000-8000-000000000000" }],
  users: [{ id: 1, email: "u@example.com", team: "t" }],
  servers: [],
  tokens: [],
};

describe("timestamps", () => {
  it("are UTC with +00:00 and whole seconds", () => {
    expect(formatTimestamp(Date.parse("2026-11-22T02:39:49.987Z"))).toBe("2026-11-22T02:39:49+00:00");
    expect(formatTimestamp(0)).toBe("1970-01-01T00:00:00+00:00");
  });
});

describe("dashboard seed", () => {
  it("is JSON-serialisable as it stands", () => {
    expect(JSON.parse(JSON.stringify(defaultDashboardSeed))).toEqual(defaultDashboardSeed);
  });

  it("loads tokens given out of id order and continues ids after the highest", () => {
    const token = (id: number) => ({
      id,
      userId: 1,
      name: `  token ${id} `,
      secret: `secret-${id}`,
      claims: [],
      createdAt: "2026-01-01T00:00:00Z",
    });
    const { domain, as } = setup({ ...base, tokens: [token(40), token(7)] });
    expect(domain.state().tokens.map((t) => [t.id, t.name])).toEqual([
      [7, "token 7"],
      [40, "token 40"],
    ]);
    expect(domain.createApiToken(as("secret-7"), { name: "n", claims: [] }).data.id).toBe(41);
  });

  it("lower-cases seeded GUIDs", () => {
    const upper = "ABCDEF01-2345-4678-89AB-CDEF01234567";
    const { domain } = setup({
      ...base,
      servers: [{ guid: upper, team: "t", address: "https://x.example.com", product: "plesk", active: true }],
      tokens: [
        {
          id: 1,
          userId: 1,
          name: "mcp",
          secret: "s",
          claims: [{ name: "mcp", attributes: { serverGuid: upper } }],
          createdAt: "2026-01-01T00:00:00Z",
        },
      ],
    });
    const snapshot = domain.state();
    expect(snapshot.servers[0]?.guid).toBe(upper.toLowerCase());
    expect(snapshot.tokens[0]?.claims).toEqual([
      { name: "mcp", readonly: false, attributes: { serverGuid: upper.toLowerCase() } },
    ]);
  });

  it.each<[string, Partial<DashboardSeed>]>([
    ["a user in an unknown team", { users: [{ id: 1, email: "u@example.com", team: "x" }] }],
    [
      "an email given twice",
      {
        users: [
          { id: 1, email: "u@example.com", team: "t" },
          { id: 2, email: "U@example.com", team: "t" },
        ],
      },
    ],
    [
      "a token of an unknown user",
      {
        tokens: [{ id: 1, userId: 9, name: "n", secret: "s", claims: [], createdAt: "2026-01-01T00:00:00Z" }],
      },
    ],
    [
      "a token id given twice",
      {
        tokens: [
          { id: 1, userId: 1, name: "n", secret: "a", claims: [], createdAt: "2026-01-01T00:00:00Z" },
          { id: 1, userId: 1, name: "n", secret: "b", claims: [], createdAt: "2026-01-01T00:00:00Z" },
        ],
      },
    ],
    [
      "a secret given twice",
      {
        tokens: [
          { id: 1, userId: 1, name: "n", secret: "a", claims: [], createdAt: "2026-01-01T00:00:00Z" },
          { id: 2, userId: 1, name: "n", secret: "a", claims: [], createdAt: "2026-01-01T00:00:00Z" },
        ],
      },
    ],
    [
      "a bad timestamp",
      { tokens: [{ id: 1, userId: 1, name: "n", secret: "a", claims: [], createdAt: "yesterday" }] },
    ],
    [
      "a server GUID that is not a GUID",
      {
        servers: [{ guid: "srv-1", team: "t", address: "https://x.example.com", product: "p", active: true }],
      },
    ],
  ])("rejects %s", (_, change) => {
    expect(() => setup({ ...base, ...change })).toThrow(/seed|Token/);
  });
});

describe("dashboard seed values", () => {
  const token = { id: 1, userId: 1, name: "n", secret: "s", claims: [], createdAt: "2026-01-01T00:00:00Z" };
  const server = {
    guid: TEAM_B_GUID,
    team: "t",
    address: "https://x.example.com",
    product: "p",
    active: true,
  };
  const load = (seed: unknown) => () => setup(seed as DashboardSeed);
  const withToken = (change: Record<string, unknown>) => ({ ...base, tokens: [{ ...token, ...change }] });

  it.each<[string, unknown, string]>([
    [
      "an unknown claim name",
      withToken({ claims: [{ name: "admin" }] }),
      "tokens.0.claims.0.name: Must be one of: mcp, manage-api-tokens",
    ],
    [
      "a team GUID that is not a GUID",
      { ...base, teams: [{ id: "t", guid: "team-t" }] },
      "teams.0.guid: Must be a GUID",
    ],
    [
      "a team GUID given to two teams",
      {
        ...base,
        teams: [
          { id: "t", guid: TEAM_B_GUID },
          { id: "u", guid: TEAM_B_GUID.toUpperCase() },
        ],
      },
      "teams.1.guid: team u has the GUID of team t",
    ],
    [
      "an mcp serverGuid that is not a GUID",
      withToken({ claims: [{ name: "mcp", attributes: { serverGuid: "srv-1" } }] }),
      "tokens.0.claims.0.attributes.serverGuid: Must be a GUID",
    ],
    [
      "an empty panelUser",
      withToken({ claims: [{ name: "mcp", attributes: { serverGuid: TEAM_B_GUID, panelUser: "" } }] }),
      "tokens.0.claims.0.attributes.panelUser: Must not be empty",
    ],
    [
      "attributes on manage-api-tokens",
      withToken({ claims: [{ name: "manage-api-tokens", attributes: { serverGuid: TEAM_B_GUID } }] }),
      'tokens.0.claims.0.attributes.serverGuid: Unknown field "serverGuid"',
    ],
    [
      "a claim given twice",
      withToken({ claims: [{ name: "mcp" }, { name: "mcp", readonly: true }] }),
      'tokens.0.claims.1: The claim "mcp" is already given earlier in claims',
    ],
    [
      "a readonly flag that is not a boolean",
      withToken({ claims: [{ name: "mcp", readonly: "yes" }] }),
      "tokens.0.claims.0.readonly: Must be a boolean",
    ],
    ["claims that are not a list", withToken({ claims: "mcp" }), "tokens.0.claims: Must be an array"],
    [
      "a misspelt token field",
      withToken({ expiresAt: null }),
      'tokens.0.expiresAt: Unknown field "expiresAt"',
    ],
    ["a token name that is not a string", withToken({ name: 5 }), "tokens.0.name: Must be a string"],
    ["a blank token name", withToken({ name: "   " }), "tokens.0.name: Must not be empty"],
    [
      "a token name over 100 characters",
      withToken({ name: "n".repeat(101) }),
      "tokens.0.name: Must have at most 100 characters",
    ],
    [
      "a secret no Bearer header can carry",
      withToken({ secret: "two words" }),
      "tokens.0.secret: Must be visible ASCII without spaces, as a Bearer token is",
    ],
    ["a token id given as a string", withToken({ id: "1" }), "tokens.0.id: Must be an integer"],
    ["a token id of 0", withToken({ id: 0 }), "tokens.0.id: Must be at least 1"],
    ["a fractional userId", withToken({ userId: 1.5 }), "tokens.0.userId: Must be an integer"],
    [
      "a timestamp without an offset",
      withToken({ createdAt: "2026-01-01T00:00:00" }),
      "tokens.0.createdAt: Must be an RFC 3339 date-time with an offset, such as 2026-01-01T00:00:00+00:00",
    ],
    [
      "a date that does not exist",
      withToken({ expireAt: "2026-02-30T00:00:00+00:00" }),
      "tokens.0.expireAt: Must be an RFC 3339 date-time with an offset, such as 2026-01-01T00:00:00+00:00",
    ],
    ["a timestamp that is a number", withToken({ lastUsedAt: 123 }), "tokens.0.lastUsedAt: Must be a string"],
    [
      "an invalid email",
      { ...base, users: [{ id: 1, email: "u at example.com", team: "t" }] },
      "users.0.email: Must be a valid email address",
    ],
    [
      "an email that is not a string",
      { ...base, users: [{ id: 1, email: 5, team: "t" }] },
      "users.0.email: Must be a string",
    ],
    [
      "an empty team id",
      { ...base, teams: [{ id: "", guid: TEAM_B_GUID }] },
      "teams.0.id: Must not be empty",
    ],
    [
      "a server address that is not a URL",
      { ...base, servers: [{ ...server, address: "panel.example.com" }] },
      "servers.0.address: Must be an absolute http or https URL",
    ],
    [
      "an empty product",
      { ...base, servers: [{ ...server, product: "" }] },
      "servers.0.product: Must not be empty",
    ],
    [
      "an active flag that is not a boolean",
      { ...base, servers: [{ ...server, active: 1 }] },
      "servers.0.active: Must be a boolean",
    ],
    [
      "a missing field",
      { ...base, servers: [{ ...server, active: undefined }] },
      'servers.0.active: "active" is required',
    ],
    [
      "a missing list",
      { teams: base.teams, users: base.users, tokens: [] },
      'servers: "servers" is required',
    ],
    ["a list that is not a list", { ...base, users: {} }, "users: Must be an array"],
    ["an entry that is not an object", { ...base, users: [null] }, "users.0: Must be an object"],
    ["an unknown list", { ...base, team: [] }, 'team: Unknown field "team"'],
    [
      "every problem of the first bad entry",
      withToken({ name: "", secret: "", claims: [{ name: "admin" }] }),
      "tokens.0.name: Must not be empty; tokens.0.secret: Must be visible ASCII without spaces, as a Bearer token is; tokens.0.claims.0.name: Must be one of: mcp, manage-api-tokens",
    ],
  ])("rejects %s with an error naming its path", (_, seed, message) => {
    expect(load(seed)).toThrow(new Error(`Dashboard seed: ${message}`));
  });

  it("rejects a seed that is not an object", () => {
    expect(load([])).toThrow(
      new Error("Dashboard seed: must be an object with teams, users, tokens and servers"),
    );
  });

  it("never repeats a rejected secret", () => {
    expect(load(withToken({ secret: "my secret" }))).toThrow(/^(?!.*my secret)/);
  });

  it("accepts what the API would: lower-case t and z, fractions, other offsets, empty manage attributes", () => {
    const { domain } = setup(
      withToken({
        claims: [{ name: "manage-api-tokens", attributes: {} }],
        createdAt: "2026-01-01t05:30:00.25+05:30",
        expireAt: "2030-01-01T00:00:00z",
        lastUsedAt: null,
      }) as DashboardSeed,
    );
    expect(domain.state().tokens[0]).toMatchObject({
      claims: [{ name: "manage-api-tokens", readonly: false }],
      createdAt: "2026-01-01T00:00:00+00:00",
      expireAt: "2030-01-01T00:00:00+00:00",
      lastUsedAt: null,
    });
  });
});
