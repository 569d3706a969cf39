import { DomainError } from "../errors.js";

// One space, then one token of visible ASCII: anything looser would accept headers a strict
// server rejects, and the mock should fail where the real service may.
const BEARER = /^bearer ([!-~]+)$/i;

/** The secret of an `Authorization: Bearer <API_TOKEN>` header value; UNAUTHORIZED otherwise. */
export function parseBearer(authorization: string | null): string {
  if (authorization === null) {
    throw new DomainError(
      "UNAUTHORIZED",
      "Missing Authorization header; send Authorization: Bearer <API_TOKEN>",
    );
  }
  const secret = BEARER.exec(authorization)?.[1];
  if (secret === undefined) {
    throw new DomainError("UNAUTHORIZED", "Malformed Authorization header; expected Bearer <API_TOKEN>");
  }
  return secret;
}
