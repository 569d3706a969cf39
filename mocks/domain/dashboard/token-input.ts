import { FieldErrorList, joinPath } from "../validation/field-errors.js";
import {
  checkLength,
  isJsonObject,
  type JsonObject,
  ownField,
  readBodyObject,
  rejectUnknownFields,
  requiredField,
} from "../validation/json-input.js";
import { CLAIM_NAMES, makeClaim } from "./claims.js";
import { isGuid } from "./guid.js";
import type { Claim } from "./types.js";

const TOKEN_LIMITS = {
  name: { min: 1, max: 100 },
  // Not fixed by the contract; bounded like any stored string, well above real panel user names.
  panelUser: { min: 1, max: 255 },
} as const;

export interface CreateTokenInput {
  /** Trimmed. */
  name: string;
  claims: Claim[];
}

/** Validates the body of `POST /dashboard/api-tokens`, collecting every field error. */
export function parseCreateTokenBody(body: unknown): CreateTokenInput {
  const errors = new FieldErrorList();
  const root = readBodyObject(body, errors);
  if (!root) throw errors.toError();
  rejectUnknownFields(root, ["name", "claims"], "", errors);
  const name = readTokenName(requiredField(root, "name", "", errors), "name", errors);
  const claims = readClaims(requiredField(root, "claims", "", errors), "claims", errors);
  errors.throwIfAny();
  // Every way of leaving `name` undefined recorded an error, so past the throw it is set.
  return { name: name as string, claims };
}

/** A token's name, trimmed; undefined (with an error unless absent) when it is not 1 to 100 characters. */
export function readTokenName(value: unknown, path: string, errors: FieldErrorList): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") {
    errors.add("invalid_type", path, "Must be a string");
    return undefined;
  }
  const trimmed = value.trim();
  return checkLength(trimmed, TOKEN_LIMITS.name, path, errors) ? trimmed : undefined;
}

/** A token's claims, each valid and at most one per name; the invalid ones are left out, with errors. */
export function readClaims(value: unknown, path: string, errors: FieldErrorList): Claim[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    errors.add("invalid_type", path, "Must be an array");
    return [];
  }
  const claims: Claim[] = [];
  const seen = new Set<string>();
  value.forEach((item: unknown, index) => {
    const claimPath = joinPath(path, index);
    const claim = readClaim(item, claimPath, errors);
    if (claim === "unnamed") return;
    if (seen.has(claim.name)) {
      errors.add("duplicate", claimPath, `The claim "${claim.name}" is already given earlier in claims`);
      return;
    }
    seen.add(claim.name);
    if (claim.valid) claims.push(claim.valid);
  });
  return claims;
}

/** The claim when valid, or just its name when only the name is usable (for the duplicate check). */
type ClaimReading = "unnamed" | { name: string; valid: Claim | undefined };

function readClaim(item: unknown, path: string, errors: FieldErrorList): ClaimReading {
  if (!isJsonObject(item)) {
    errors.add("invalid_type", path, "Each claim must be an object");
    return "unnamed";
  }
  const before = errors.items.length;
  rejectUnknownFields(item, ["name", "readonly", "attributes"], path, errors);
  const name = requiredField(item, "name", path, errors);
  const readonly = ownField(item, "readonly");
  if (readonly !== undefined && typeof readonly !== "boolean") {
    errors.add("invalid_type", joinPath(path, "readonly"), "Must be a boolean");
  }
  const attributesPath = joinPath(path, "attributes");
  const attributes = ownField(item, "attributes");
  if (attributes !== undefined && !isJsonObject(attributes)) {
    errors.add("invalid_type", attributesPath, "Must be an object");
  }
  const attributeObject = isJsonObject(attributes) ? attributes : undefined;

  if (name === undefined) return "unnamed";
  if (typeof name !== "string") {
    errors.add("invalid_type", joinPath(path, "name"), "Must be a string");
    return "unnamed";
  }
  if (!CLAIM_NAMES.includes(name)) {
    errors.add("invalid_value", joinPath(path, "name"), `Must be one of: ${CLAIM_NAMES.join(", ")}`);
    return "unnamed";
  }
  if (name === "manage-api-tokens") {
    if (attributeObject) rejectUnknownFields(attributeObject, [], attributesPath, errors);
    if (errors.items.length > before) return { name, valid: undefined };
    return { name, valid: makeClaim({ name, readonly: readonly === true }) };
  }
  const mcp = attributeObject ? readMcpAttributes(attributeObject, attributesPath, errors) : {};
  if (errors.items.length > before) return { name, valid: undefined };
  return { name, valid: makeClaim({ name: "mcp", readonly: readonly === true, attributes: mcp }) };
}

function readMcpAttributes(
  attributes: JsonObject,
  path: string,
  errors: FieldErrorList,
): { serverGuid?: string; panelUser?: string } {
  rejectUnknownFields(attributes, ["serverGuid", "panelUser"], path, errors);
  const result: { serverGuid?: string; panelUser?: string } = {};
  const serverGuid = ownField(attributes, "serverGuid");
  const serverGuidPath = joinPath(path, "serverGuid");
  if (typeof serverGuid === "string") {
    if (isGuid(serverGuid)) result.serverGuid = serverGuid;
    else errors.add("invalid_format", serverGuidPath, "Must be a GUID");
  } else if (serverGuid !== undefined) {
    errors.add("invalid_type", serverGuidPath, "Must be a string");
  }
  const panelUser = ownField(attributes, "panelUser");
  if (panelUser === undefined) return result;
  const panelUserPath = joinPath(path, "panelUser");
  if (typeof panelUser !== "string") errors.add("invalid_type", panelUserPath, "Must be a string");
  else if (checkLength(panelUser, TOKEN_LIMITS.panelUser, panelUserPath, errors))
    result.panelUser = panelUser;
  if (serverGuid === undefined) {
    errors.add("required", serverGuidPath, "panelUser scopes a token only together with serverGuid");
  }
  return result;
}
