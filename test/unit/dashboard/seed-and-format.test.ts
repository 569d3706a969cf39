import { describe, expect, it } from "vitest";
import { type DashboardSeed, defaultDashboardSeed } from "../../../mocks/domain/dashboard/index.js";
import { DomainError } from "../../../mocks/domain/errors.js";
import { formatTimestamp } from "../../../mocks/domain/timestamp.js";
import { createMockWorld } from "../../../mocks/world.js";
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
});

// References and keys given twice: what the seed schema cannot state (mocks/domain/dashboard/references.ts),
// reported like a schema problem: every one at its element's path, in one error, after "Invalid seed:".
describe("dashboard seed references and uniqueness", () => {
  const token = (id: number, change: Record<string, unknown> = {}) => ({
    id,
    userId: 1,
    name: "n",
    secret: `secret-${id}`,
    claims: [],
    createdAt: "2026-01-01T00:00:00Z",
    ...change,
  });
  const server = (guid: string, team = "t") => ({
    guid,
    team,
    address: "https://x.example.com",
    product: "plesk",
    active: true,
  });
  const load = (change: Record<string, unknown>) => () =>
    createMockWorld({ seed: { dashboard: { ...base, ...change } as DashboardSeed } });

  it.each<[string, Record<string, unknown>, string]>([
    [
      "a user in an unknown team",
      { users: [{ id: 1, email: "u@example.com", team: "x" }] },
      "dashboard.users.0.team: must be the id of a team in the seed",
    ],
    [
      "a team id given twice",
      { teams: [...base.teams, { id: "t", guid: TEAM_B_GUID }] },
      "dashboard.teams.1.id: must not repeat team id t (first at dashboard.teams.0.id)",
    ],
    [
      "a team GUID given to two teams, in another case",
      {
        teams: [
          { id: "t", guid: TEAM_B_GUID },
          { id: "u", guid: TEAM_B_GUID.toUpperCase() },
        ],
      },
      `dashboard.teams.1.guid: must not repeat team GUID ${TEAM_B_GUID.toUpperCase()} (first at dashboard.teams.0.guid)`,
    ],
    [
      "a user id given twice",
      {
        users: [
          { id: 1, email: "u@example.com", team: "t" },
          { id: 1, email: "v@example.com", team: "t" },
        ],
      },
      "dashboard.users.1.id: must not repeat user id 1 (first at dashboard.users.0.id)",
    ],
    [
      "an email given twice, in another case",
      {
        users: [
          { id: 1, email: "u@example.com", team: "t" },
          { id: 2, email: "U@example.com", team: "t" },
        ],
      },
      "dashboard.users.1.email: must not repeat email U@example.com (first at dashboard.users.0.email)",
    ],
    [
      "a token of an unknown user",
      { tokens: [token(1, { userId: 9 })] },
      "dashboard.tokens.0.userId: must be the id of a user in the seed",
    ],
    [
      "a token id given twice",
      { tokens: [token(1), token(1, { secret: "another" })] },
      "dashboard.tokens.1.id: must not repeat token id 1 (first at dashboard.tokens.0.id)",
    ],
    [
      "a secret given twice (never quoted)",
      { tokens: [token(1), token(2, { secret: "secret-1" })] },
      "dashboard.tokens.1.secret: must not repeat a secret (first at dashboard.tokens.0.secret)",
    ],
    [
      "a claim given twice",
      { tokens: [token(1, { claims: [{ name: "mcp" }, { name: "mcp", readonly: true }] })] },
      "dashboard.tokens.0.claims.1: must not repeat claim mcp (first at dashboard.tokens.0.claims.0)",
    ],
    [
      "a server GUID given twice, in another case",
      { servers: [server(TEAM_B_GUID), server(TEAM_B_GUID.toUpperCase())] },
      `dashboard.servers.1.guid: must not repeat server GUID ${TEAM_B_GUID.toUpperCase()} (first at dashboard.servers.0.guid)`,
    ],
    [
      "a server in an unknown team",
      { servers: [server(TEAM_B_GUID, "nope")] },
      "dashboard.servers.0.team: must be the id of a team in the seed",
    ],
  ])("rejects %s, naming its path", (_, change, problem) => {
    expect(load(change)).toThrow(new Error(`Invalid seed: ${problem}`));
  });

  it("reports every problem at once, each at its path, in one error", () => {
    const seed = {
      users: [
        { id: 1, email: "u@example.com", team: "t" },
        { id: 2, email: "v@example.com", team: "nope" },
      ],
      tokens: [token(3), token(3, { userId: 7, secret: "secret-3" })],
      servers: [server(TEAM_B_GUID), server(TEAM_B_GUID, "nope")],
    };
    expect(load(seed)).toThrow(
      new Error(
        "Invalid seed: " +
          [
            "dashboard.users.1.team: must be the id of a team in the seed",
            "dashboard.tokens.1.id: must not repeat token id 3 (first at dashboard.tokens.0.id)",
            "dashboard.tokens.1.userId: must be the id of a user in the seed",
            "dashboard.tokens.1.secret: must not repeat a secret (first at dashboard.tokens.0.secret)",
            `dashboard.servers.1.guid: must not repeat server GUID ${TEAM_B_GUID} (first at dashboard.servers.0.guid)`,
            "dashboard.servers.1.team: must be the id of a team in the seed",
          ].join("; "),
      ),
    );
  });

  it("are the dashboard domain's VALIDATION_FAILED, field errors in the one vocabulary", () => {
    try {
      setup({ ...base, tokens: [token(1), token(1, { secret: "x" })] });
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe("VALIDATION_FAILED");
      expect((error as DomainError).details.fieldErrors).toEqual([
        {
          type: "duplicate",
          path: "dashboard.tokens.1.id",
          message: "must not repeat token id 1 (first at dashboard.tokens.0.id)",
        },
      ]);
      return;
    }
    throw new Error("the seed was accepted");
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
  // As a world loads it: the seed schema, then references and uniqueness.
  const load = (seed: unknown) => () => createMockWorld({ seed: { dashboard: seed as DashboardSeed } });
  const withToken = (change: Record<string, unknown>) => ({ ...base, tokens: [{ ...token, ...change }] });

  it.each<[string, unknown, string]>([
    [
      "an unknown claim name",
      withToken({ claims: [{ name: "admin" }] }),
      "Invalid seed: dashboard.tokens.0.claims.0.name: must be one of mcp, manage-api-tokens",
    ],
    [
      "a team GUID that is not a GUID",
      { ...base, teams: [{ id: "t", guid: "team-t" }] },
      "Invalid seed: dashboard.teams.0.guid: must be a GUID (8-4-4-4-12 hexadecimal digits)",
    ],
    [
      "an mcp serverGuid that is not a GUID",
      withToken({ claims: [{ name: "mcp", attributes: { serverGuid: "srv-1" } }] }),
      "Invalid seed: dashboard.tokens.0.claims.0.attributes.serverGuid: must be a GUID",
    ],
    [
      "an empty panelUser",
      withToken({ claims: [{ name: "mcp", attributes: { serverGuid: TEAM_B_GUID, panelUser: "" } }] }),
      "Invalid seed: dashboard.tokens.0.claims.0.attributes.panelUser: must not be empty",
    ],
    [
      "attributes on manage-api-tokens",
      withToken({ claims: [{ name: "manage-api-tokens", attributes: { serverGuid: TEAM_B_GUID } }] }),
      "Invalid seed: dashboard.tokens.0.claims.0.attributes.serverGuid: is not a known field",
    ],
    [
      "a readonly flag that is not a boolean",
      withToken({ claims: [{ name: "mcp", readonly: "yes" }] }),
      "Invalid seed: dashboard.tokens.0.claims.0.readonly: must be a boolean",
    ],
    [
      "claims that are not a list",
      withToken({ claims: "mcp" }),
      "Invalid seed: dashboard.tokens.0.claims: must be an array",
    ],
    [
      "a misspelt token field",
      withToken({ expiresAt: null }),
      "Invalid seed: dashboard.tokens.0.expiresAt: is not a known field",
    ],
    [
      "a token name that is not a string",
      withToken({ name: 5 }),
      "Invalid seed: dashboard.tokens.0.name: must be a string",
    ],
    [
      "a blank token name",
      withToken({ name: "   " }),
      "Invalid seed: dashboard.tokens.0.name: must be 1 to 100 characters once surrounding white space is trimmed",
    ],
    [
      "a token name over 100 characters",
      withToken({ name: "n".repeat(101) }),
      "Invalid seed: dashboard.tokens.0.name: must be 1 to 100 characters once surrounding white space is trimmed",
    ],
    [
      "a secret no Bearer header can carry",
      withToken({ secret: "two words" }),
      "Invalid seed: dashboard.tokens.0.secret: must be visible ASCII without spaces",
    ],
    [
      "a token id given as a string",
      withToken({ id: "1" }),
      "Invalid seed: dashboard.tokens.0.id: must be an integer",
    ],
    ["a token id of 0", withToken({ id: 0 }), "Invalid seed: dashboard.tokens.0.id: must be at least 1"],
    [
      "a fractional userId",
      withToken({ userId: 1.5 }),
      "Invalid seed: dashboard.tokens.0.userId: must be an integer",
    ],
    [
      "a timestamp without an offset",
      withToken({ createdAt: "2026-01-01T00:00:00" }),
      "Invalid seed: dashboard.tokens.0.createdAt: must be an RFC 3339 date-time with an offset, such as 2026-01-01T00:00:00+00:00",
    ],
    [
      "a date that does not exist",
      withToken({ expireAt: "2026-02-30T00:00:00+00:00" }),
      "Invalid seed: dashboard.tokens.0.expireAt: must be an RFC 3339 date-time with an offset, such as 2026-01-01T00:00:00+00:00",
    ],
    [
      "a timestamp that is a number",
      withToken({ lastUsedAt: 123 }),
      "Invalid seed: dashboard.tokens.0.lastUsedAt: must be a string or null",
    ],
    [
      "an invalid email",
      { ...base, users: [{ id: 1, email: "u at example.com", team: "t" }] },
      "Invalid seed: dashboard.users.0.email: must be a valid email address",
    ],
    [
      "an email that is not a string",
      { ...base, users: [{ id: 1, email: 5, team: "t" }] },
      "Invalid seed: dashboard.users.0.email: must be a string",
    ],
    [
      "an empty team id",
      { ...base, teams: [{ id: "", guid: TEAM_B_GUID }] },
      "Invalid seed: dashboard.teams.0.id: must not be empty",
    ],
    [
      "a server address that is not a URL",
      { ...base, servers: [{ ...server, address: "panel.example.com" }] },
      "Invalid seed: dashboard.servers.0.address: must be an absolute http or https URL",
    ],
    [
      "a server GUID that is not a GUID",
      { ...base, servers: [{ ...server, guid: "srv-1" }] },
      "Invalid seed: dashboard.servers.0.guid: must be a GUID (8-4-4-4-12 hexadecimal digits)",
    ],
    [
      "an empty product",
      { ...base, servers: [{ ...server, product: "" }] },
      "Invalid seed: dashboard.servers.0.product: must not be empty",
    ],
    [
      "an active flag that is not a boolean",
      { ...base, servers: [{ ...server, active: 1 }] },
      "Invalid seed: dashboard.servers.0.active: must be a boolean",
    ],
    [
      "a missing field",
      { ...base, servers: [{ ...server, active: undefined }] },
      "Invalid seed: dashboard.servers.0.active: is required",
    ],
    ["a list that is not a list", { ...base, users: {} }, "Invalid seed: dashboard.users: must be an array"],
    [
      "an entry that is not an object",
      { ...base, users: [null] },
      "Invalid seed: dashboard.users.0: must be an object",
    ],
    ["an unknown list", { ...base, team: [] }, "Invalid seed: dashboard.team: is not a known field"],
    [
      "every problem at once",
      withToken({ name: "", secret: "", claims: [{ name: "admin" }] }),
      "Invalid seed: dashboard.tokens.0.name: must not be empty; dashboard.tokens.0.secret: must not be empty; dashboard.tokens.0.claims.0.name: must be one of mcp, manage-api-tokens",
    ],
  ])("rejects %s with an error naming its path", (_, seed, message) => {
    expect(load(seed)).toThrow(new Error(message));
  });

  it("rejects a seed that is not an object", () => {
    expect(load([])).toThrow(new Error("Invalid seed: dashboard: must be an object"));
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
