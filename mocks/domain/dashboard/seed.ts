import type { components } from "../../../src/generated/mock-control.js";
import { deepFreeze } from "../deep-freeze.js";

/**
 * The starting state of the Dashboard mock (openapi/mock-control.yaml, `DashboardSeed`): teams,
 * users, tokens with their secrets in clear (hashed when loaded; nothing keeps them in clear after)
 * and each team's servers in connection order, every list given (a seed may leave lists out: the
 * world fills them in from `defaultDashboardSeed`). Plain JSON, so a seed can live in a file; the
 * world checks it against that schema, and loading checks references and uniqueness.
 */
export type DashboardSeed = Required<components["schemas"]["DashboardSeed"]>;
/** One token of a seed. */
export type DashboardSeedToken = components["schemas"]["SeedToken"];

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
export const defaultDashboardSeed: DashboardSeed = deepFreeze({
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
});
