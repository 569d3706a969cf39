import { describe, expect, it } from "vitest";
import {
  type DashboardSeed,
  defaultDashboardSeed,
  formatTimestamp,
} from "../../../mocks/domain/dashboard/index.js";
import { setup } from "./helpers.js";

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
    expect(domain.snapshot().tokens.map((t) => [t.id, t.name])).toEqual([
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
    const snapshot = domain.snapshot();
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
