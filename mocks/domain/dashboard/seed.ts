import type { ClaimInput } from "./types.js";

/**
 * The starting state of the Dashboard mock. Plain JSON, so a seed can live in a file. Secrets are
 * given in clear here and hashed when the domain loads the seed; nothing keeps them in clear after.
 * Loading checks every value (seed-check.ts) and throws an Error naming the JSON path of each
 * problem; unknown fields are errors too, so a misspelt `expireAt` cannot go unnoticed.
 */
export interface DashboardSeed {
  teams: readonly DashboardSeedTeam[];
  users: readonly DashboardSeedUser[];
  tokens: readonly DashboardSeedToken[];
  /** Each team's inventory, in connection order. */
  servers: readonly DashboardSeedServer[];
}

export interface DashboardSeedTeam {
  /** Internal key that users and servers refer to; not part of the API. Non-empty, unique. */
  id: string;
  /** What `GET /accounts/team-guid` answers: a GUID, unique (either case; answered in lower case). */
  guid: string;
}

export interface DashboardSeedUser {
  /** Positive integer, unique. */
  id: number;
  /** A valid address (as for invitations), unique case-insensitively. */
  email: string;
  /** A `DashboardSeedTeam.id`. */
  team: string;
}

export interface DashboardSeedToken {
  /** Positive integer, unique. Tokens created later get ids above the highest seeded one. */
  id: number;
  /** A `DashboardSeedUser.id`: the owner. */
  userId: number;
  /** 1 to 100 characters after trimming, as through the API. */
  name: string;
  /** The bearer secret in clear, unique. Any visible ASCII without spaces. */
  secret: string;
  /** Empty for an unrestricted token; each claim as `POST /dashboard/api-tokens` accepts it. */
  claims: readonly DashboardSeedClaim[];
  /** RFC 3339 date-time with an offset, e.g. `2026-01-01T00:00:00+00:00` or `…T00:00:00Z`. */
  createdAt: string;
  /** Absent or null: never expires. At or before the current time the token gets 401. */
  expireAt?: string | null;
  /** Absent or null: never used. */
  lastUsedAt?: string | null;
}

/** A claim as a request would write it: `readonly` defaults to false. */
type DashboardSeedClaim = ClaimInput;

interface DashboardSeedServer {
  /** A GUID, unique across teams (either case; answered in lower case). */
  guid: string;
  /** A `DashboardSeedTeam.id`: whose inventory holds the server. */
  team: string;
  /** `address` and `product` follow the rules of `POST /si/servers`. */
  address: string;
  product: string;
  active: boolean;
}

const TEAM_A_GUID = "3f2a7c1e-8b4d-4e6f-9a1b-2c3d4e5f6a7b";
const TEAM_B_GUID = "9d8c7b6a-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
const SERVER_1 = "5b1c3f0e-2a4d-4c6b-8e9f-0a1b2c3d4e01";
const SERVER_2 = "5b1c3f0e-2a4d-4c6b-8e9f-0a1b2c3d4e02";
const SERVER_3 = "5b1c3f0e-2a4d-4c6b-8e9f-0a1b2c3d4e03";
const SEEDED_AT = "2026-01-01T00:00:00+00:00";

/**
 * The default world: user 1 (`owner@example.com`, team A, owner of three servers) and user 2
 * (`other@example.com`, team B, no servers), with one token per interesting claim combination.
 * Every token but `mock-token-other-user` belongs to user 1.
 */
export const defaultDashboardSeed: DashboardSeed = {
  teams: [
    { id: "team-a", guid: TEAM_A_GUID },
    { id: "team-b", guid: TEAM_B_GUID },
  ],
  users: [
    { id: 1, email: "owner@example.com", team: "team-a" },
    { id: 2, email: "other@example.com", team: "team-b" },
  ],
  tokens: [
    {
      id: 1,
      userId: 1,
      name: "Default unrestricted token",
      secret: "mock-token-unrestricted",
      claims: [],
      createdAt: SEEDED_AT,
    },
    {
      id: 2,
      userId: 2,
      name: "Other user's unrestricted token",
      secret: "mock-token-other-user",
      claims: [],
      createdAt: SEEDED_AT,
    },
    {
      id: 3,
      userId: 1,
      name: "Token manager",
      secret: "mock-token-manage",
      claims: [{ name: "manage-api-tokens" }],
      createdAt: SEEDED_AT,
    },
    {
      id: 4,
      userId: 1,
      name: "Read-only token manager",
      secret: "mock-token-manage-readonly",
      claims: [{ name: "manage-api-tokens", readonly: true }],
      createdAt: SEEDED_AT,
    },
    {
      id: 5,
      userId: 1,
      name: "MCP on panel1 as admin",
      secret: "mock-token-mcp",
      claims: [{ name: "mcp", attributes: { serverGuid: SERVER_1, panelUser: "admin" } }],
      createdAt: SEEDED_AT,
    },
    {
      id: 6,
      userId: 1,
      name: "Read-only MCP on panel1",
      secret: "mock-token-mcp-readonly",
      claims: [{ name: "mcp", readonly: true, attributes: { serverGuid: SERVER_1 } }],
      createdAt: SEEDED_AT,
    },
    {
      id: 7,
      userId: 1,
      name: "Token manager with MCP on panel1",
      secret: "mock-token-manage-mcp",
      claims: [{ name: "manage-api-tokens" }, { name: "mcp", attributes: { serverGuid: SERVER_1 } }],
      createdAt: SEEDED_AT,
    },
    {
      id: 8,
      userId: 1,
      name: "Token manager with read-only MCP",
      secret: "mock-token-manage-mcp-readonly",
      claims: [{ name: "manage-api-tokens" }, { name: "mcp", readonly: true }],
      createdAt: SEEDED_AT,
    },
    {
      id: 9,
      userId: 1,
      name: "Expired token",
      secret: "mock-token-expired",
      claims: [],
      createdAt: "2025-12-01T00:00:00+00:00",
      expireAt: "2025-12-31T00:00:00+00:00",
      lastUsedAt: "2025-12-15T12:00:00+00:00",
    },
  ],
  servers: [
    {
      guid: SERVER_1,
      team: "team-a",
      address: "https://panel1.example.com:8443",
      product: "plesk",
      active: true,
    },
    {
      guid: SERVER_2,
      team: "team-a",
      address: "https://panel2.example.com:8443",
      product: "plesk",
      active: true,
    },
    {
      guid: SERVER_3,
      team: "team-a",
      address: "https://panel3.example.com:2083",
      product: "cpanel",
      active: false,
    },
  ],
};
