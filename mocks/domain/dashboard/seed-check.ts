import { FieldErrorList, joinPath } from "../validation/field-errors.js";
import {
  isJsonObject,
  type JsonObject,
  ownField,
  rejectUnknownFields,
  requiredField,
} from "../validation/json-input.js";
import { isValidEmailAddress } from "./email-address.js";
import { isGuid } from "./guid.js";
import type { DashboardSeed } from "./seed.js";
import { isSeedTimestamp } from "./seed-timestamp.js";
import { checkAddress, checkProduct } from "./server-input.js";
import { readClaims, readTokenName } from "./token-input.js";

// What an `Authorization: Bearer` header can carry (bearer.ts): a secret outside it could never be used.
const BEARER_SECRET = /^[!-~]+$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

type EntryCheck = (entry: JsonObject, path: string, errors: FieldErrorList) => void;

const ENTRY_CHECKS: Readonly<Record<keyof DashboardSeed, EntryCheck>> = {
  teams: checkTeam,
  users: checkUser,
  tokens: checkToken,
  servers: checkServer,
};

/**
 * Checks every value of a seed on its own, as the API would check the same value in a request, and
 * throws an Error naming the JSON path of each problem in the first bad entry. A seed often comes
 * from a hand-written file (`--seed`), and a value let through here would surface later as a crash or
 * as an answer that breaks the contract. What needs the whole seed (references, duplicates) is
 * checked as the entries are loaded.
 */
export function assertDashboardSeedValues(seed: unknown): asserts seed is DashboardSeed {
  if (!isJsonObject(seed)) throw seedError("must be an object with teams, users, tokens and servers");
  const errors = new FieldErrorList();
  rejectUnknownFields(seed, Object.keys(ENTRY_CHECKS), "", errors);
  throwSeedError(errors);
  for (const [list, checkEntry] of Object.entries(ENTRY_CHECKS)) {
    const entries = requiredField(seed, list, "", errors);
    if (Array.isArray(entries)) {
      entries.forEach((entry: unknown, index) => {
        const path = joinPath(list, index);
        if (isJsonObject(entry)) checkEntry(entry, path, errors);
        else errors.add("invalid_type", path, "Must be an object");
        throwSeedError(errors);
      });
    } else if (entries !== undefined) {
      errors.add("invalid_type", list, "Must be an array");
    }
    throwSeedError(errors);
  }
}

function throwSeedError(errors: FieldErrorList): void {
  if (errors.items.length > 0) {
    throw seedError(errors.items.map(({ path, message }) => `${path}: ${message}`).join("; "));
  }
}

function seedError(problems: string): Error {
  return new Error(`Dashboard seed: ${problems}`);
}

/** A team as a seed (or a snapshot) writes it. */
export function checkTeam(team: JsonObject, path: string, errors: FieldErrorList): void {
  rejectUnknownFields(team, ["id", "guid"], path, errors);
  checkKey(requiredField(team, "id", path, errors), joinPath(path, "id"), errors);
  checkGuid(requiredField(team, "guid", path, errors), joinPath(path, "guid"), errors);
}

/** A user as a seed (or a snapshot) writes it. */
export function checkUser(user: JsonObject, path: string, errors: FieldErrorList): void {
  rejectUnknownFields(user, ["id", "email", "team"], path, errors);
  checkId(requiredField(user, "id", path, errors), joinPath(path, "id"), errors);
  const emailPath = joinPath(path, "email");
  const email = readString(requiredField(user, "email", path, errors), emailPath, errors);
  if (email !== undefined && !isValidEmailAddress(email)) {
    errors.add("invalid_format", emailPath, "Must be a valid email address");
  }
  checkKey(requiredField(user, "team", path, errors), joinPath(path, "team"), errors);
}

/**
 * A token as a seed writes it, with its `secret` in clear; a snapshot writes `secretHash` instead
 * (SHA-256, lower-case hex), since the mock never keeps a secret.
 */
export function checkToken(
  token: JsonObject,
  path: string,
  errors: FieldErrorList,
  secretField: "secret" | "secretHash" = "secret",
): void {
  rejectUnknownFields(
    token,
    ["id", "userId", "name", secretField, "claims", "createdAt", "expireAt", "lastUsedAt"],
    path,
    errors,
  );
  checkId(requiredField(token, "id", path, errors), joinPath(path, "id"), errors);
  checkId(requiredField(token, "userId", path, errors), joinPath(path, "userId"), errors);
  readTokenName(requiredField(token, "name", path, errors), joinPath(path, "name"), errors);
  const secretPath = joinPath(path, secretField);
  const secret = readString(requiredField(token, secretField, path, errors), secretPath, errors);
  // The message never repeats the value: it is a secret.
  if (secret !== undefined && secretField === "secret" && !BEARER_SECRET.test(secret)) {
    errors.add("invalid_format", secretPath, "Must be visible ASCII without spaces, as a Bearer token is");
  }
  if (secret !== undefined && secretField === "secretHash" && !SHA256_HEX.test(secret)) {
    errors.add("invalid_format", secretPath, "Must be a SHA-256 digest in lower-case hex (64 digits)");
  }
  readClaims(requiredField(token, "claims", path, errors), joinPath(path, "claims"), errors);
  checkTimestamp(requiredField(token, "createdAt", path, errors), joinPath(path, "createdAt"), errors);
  for (const field of ["expireAt", "lastUsedAt"]) {
    const value = ownField(token, field);
    if (value !== null) checkTimestamp(value, joinPath(path, field), errors);
  }
}

/** A server as a seed (or a snapshot) writes it. */
export function checkServer(server: JsonObject, path: string, errors: FieldErrorList): void {
  rejectUnknownFields(server, ["guid", "team", "address", "product", "active"], path, errors);
  checkGuid(requiredField(server, "guid", path, errors), joinPath(path, "guid"), errors);
  checkKey(requiredField(server, "team", path, errors), joinPath(path, "team"), errors);
  const address = requiredField(server, "address", path, errors);
  if (address !== undefined) checkAddress(address, joinPath(path, "address"), errors);
  const product = requiredField(server, "product", path, errors);
  if (product !== undefined) checkProduct(product, joinPath(path, "product"), errors);
  const active = requiredField(server, "active", path, errors);
  if (active !== undefined && typeof active !== "boolean") {
    errors.add("invalid_type", joinPath(path, "active"), "Must be a boolean");
  }
}

/** The string, or undefined: absent (already reported as required) or not a string (reported here). */
function readString(value: unknown, path: string, errors: FieldErrorList): string | undefined {
  if (typeof value === "string") return value;
  if (value !== undefined) errors.add("invalid_type", path, "Must be a string");
  return undefined;
}

/** Team ids: the internal keys that users and servers refer to. */
function checkKey(value: unknown, path: string, errors: FieldErrorList): void {
  if (readString(value, path, errors) === "") errors.add("too_small", path, "Must not be empty");
}

/** User and token ids: positive integers, as the API's token ids. */
function checkId(value: unknown, path: string, errors: FieldErrorList): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    errors.add("invalid_type", path, "Must be an integer");
  } else if (value < 1) {
    errors.add("too_small", path, "Must be at least 1");
  }
}

function checkGuid(value: unknown, path: string, errors: FieldErrorList): void {
  const guid = readString(value, path, errors);
  if (guid !== undefined && !isGuid(guid)) errors.add("invalid_format", path, "Must be a GUID");
}

function checkTimestamp(value: unknown, path: string, errors: FieldErrorList): void {
  const text = readString(value, path, errors);
  if (text !== undefined && !isSeedTimestamp(text)) {
    errors.add(
      "invalid_format",
      path,
      "Must be an RFC 3339 date-time with an offset, such as 2026-01-01T00:00:00+00:00",
    );
  }
}
