import type { Claim, ClaimInput, ClaimName, McpAttributes } from "./types.js";

// Keyed by the contract's claim names, so the compiler rejects a name missing here or unknown there.
const KNOWN_CLAIMS: Readonly<Record<ClaimName, true>> = { mcp: true, "manage-api-tokens": true };

/** The claim names the contract defines, for checking input at run time. */
export const CLAIM_NAMES: readonly string[] = Object.keys(KNOWN_CLAIMS);

/**
 * The stored, frozen form of a claim. Stored claims are shared by the principal and every response,
 * so freezing them is what makes that sharing safe.
 */
export function makeClaim(input: ClaimInput): Claim {
  const readonly = input.readonly ?? false;
  if (input.name === "manage-api-tokens") return Object.freeze({ name: input.name, readonly });
  const attributes: { serverGuid?: string; panelUser?: string } = {};
  const { serverGuid, panelUser } = input.attributes ?? {};
  if (serverGuid !== undefined) attributes.serverGuid = serverGuid.toLowerCase();
  if (panelUser !== undefined) attributes.panelUser = panelUser;
  return Object.freeze({ name: input.name, readonly, attributes: Object.freeze(attributes) });
}

/**
 * Rule 5: whether a caller's claim allows a requested one. `mcp` is covered by an `mcp` that is
 * unscoped or scoped identically, level by level (server, then panel user).
 */
export function covers(held: Claim, requested: Claim): boolean {
  if (held.name === "manage-api-tokens" || requested.name === "manage-api-tokens") {
    return held.name === requested.name;
  }
  return covered(held.attributes, requested.attributes);
}

function covered(held: McpAttributes, requested: McpAttributes): boolean {
  return (
    (held.serverGuid === undefined || held.serverGuid === requested.serverGuid) &&
    (held.panelUser === undefined || held.panelUser === requested.panelUser)
  );
}
