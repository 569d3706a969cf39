import { DomainError } from "../errors.js";
import { covers } from "./claims.js";
import type { Claim, DashboardOperation, Principal } from "./types.js";

type TokenAccess = "read" | "write";

/** The token endpoints, which need `manage-api-tokens`; every other operation needs no claim. */
const TOKEN_OPERATIONS: Partial<Record<DashboardOperation, TokenAccess>> = {
  listApiTokens: "read",
  getApiToken: "read",
  createApiToken: "write",
  deleteApiToken: "write",
};

/**
 * Rules 1–4 of contract-decisions ("Claims and authorization"): may this token call the operation
 * at all. Throws FORBIDDEN. Claim breadth (rule 5) needs the validated body: see `assertNotBroader`.
 */
export function authorizeOperation(principal: Principal, operation: DashboardOperation): void {
  const { claims } = principal;
  if (claims.length === 0) return;
  const access = TOKEN_OPERATIONS[operation];
  if (access === undefined) {
    throw forbidden(
      `${operation} needs an unrestricted token (one without claims); this token carries claims`,
    );
  }
  const manage = claims.find((claim) => claim.name === "manage-api-tokens");
  if (!manage) throw forbidden(`${operation} needs a token carrying the manage-api-tokens claim`);
  if (access === "write" && manage.readonly) {
    throw forbidden(`A read-only manage-api-tokens claim may list and read tokens, not call ${operation}`);
  }
  if (operation === "createApiToken" && claims.some((claim) => claim.name === "mcp" && claim.readonly)) {
    throw forbidden("A token carrying a read-only mcp claim cannot create tokens");
  }
}

/** Rule 5: a new token may not be broader than the token creating it. */
export function assertNotBroader(caller: readonly Claim[], requested: readonly Claim[]): void {
  if (caller.length === 0) return;
  if (requested.length === 0) {
    throw forbidden("A token with claims cannot create an unrestricted token (claims: [])");
  }
  requested.forEach((claim, index) => {
    if (!caller.some((held) => covers(held, claim))) {
      throw forbidden(`claims.${index} (${claim.name}) is broader than the calling token's claims`);
    }
  });
}

function forbidden(message: string): DomainError {
  return new DomainError("FORBIDDEN", message);
}
