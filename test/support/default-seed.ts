/**
 * The default seed's fixed values, as literals so each test reads as what it sends. A seed change
 * that breaks one of these fails loudly in the tests that use it.
 */

/** Bearer secrets of the default dashboard seed, by what the token may do. */
export const TOKEN = {
  /** id 1, user 1, no claims. */
  unrestricted: "mock-token-unrestricted",
  /** id 2, user 2 (team B), no claims. */
  otherUser: "mock-token-other-user",
  /** id 3: manage-api-tokens. */
  manage: "mock-token-manage",
  /** id 4: read-only manage-api-tokens. */
  manageReadonly: "mock-token-manage-readonly",
  /** id 5: mcp on SERVER_1 as panel user admin. */
  mcp: "mock-token-mcp",
  /** id 6: read-only mcp on SERVER_1. */
  mcpReadonly: "mock-token-mcp-readonly",
  /** id 7: manage-api-tokens + mcp on SERVER_1 (any panel user). */
  manageMcp: "mock-token-manage-mcp",
  /** id 8: manage-api-tokens + read-only mcp on every server. */
  manageMcpReadonly: "mock-token-manage-mcp-readonly",
  /** id 9: unrestricted, expired 2025-12-31. */
  expired: "mock-token-expired",
} as const;

/** User 1's token ids, ascending. */
export const USER_1_TOKEN_IDS = [1, 3, 4, 5, 6, 7, 8, 9];

/** Team A's servers, in connection order. */
export const SERVER_1 = "5b1c3f0e-2a4d-4c6b-8e9f-0a1b2c3d4e01";
export const SERVER_2 = "5b1c3f0e-2a4d-4c6b-8e9f-0a1b2c3d4e02";
export const SERVER_3 = "5b1c3f0e-2a4d-4c6b-8e9f-0a1b2c3d4e03";

export const TEAM_A_GUID = "3f2a7c1e-8b4d-4e6f-9a1b-2c3d4e5f6a7b";
export const TEAM_B_GUID = "9d8c7b6a-5e4f-4a3b-8c2d-1e0f9a8b7c6d";

/** Rebuild partners: 1001 can do everything, 1002 has the feature off, 1003 has no webhooks. */
export const PARTNER = {
  ok: { id: "1001", apiKey: "mock-rebuild-key-1001", webhookApiKey: "mock-webhook-key-1001" },
  disabled: { id: "1002", apiKey: "mock-rebuild-key-1002", webhookApiKey: "mock-webhook-key-1002" },
  noWebhooks: { id: "1003", apiKey: "mock-rebuild-key-1003" },
} as const;

/** The frozen "now" of every test world: after the seed's expired token expired. */
export const FROZEN_AT = Date.parse("2026-03-01T12:00:00+00:00");
