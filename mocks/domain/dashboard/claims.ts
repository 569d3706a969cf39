import type { FieldError } from "../errors.js";
import { firstGiven, joinPath } from "../validation/schema-errors.js";
import type { Claim, ClaimInput, McpAttributes } from "./types.js";

/**
 * Rule 6's "the same claim name twice": one `duplicate` error at each later occurrence. The contract
 * states the rule (`contains` with `maxContains: 1` per claim name) but a schema cannot say which item
 * repeats, so the path is found here (schema-errors.ts leaves the `contains` issue to this). Also used
 * for seeds, which no schema checks.
 */
export function duplicateClaims(claims: readonly { name: string }[], path: string): FieldError[] {
  const first = new Map<string, string>();
  const errors: FieldError[] = [];
  claims.forEach(({ name }, index) => {
    firstGiven(first, name, joinPath(path, index), `claim ${name}`, errors);
  });
  return errors;
}

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
