import { FieldErrorList, joinPath } from "../validation/field-errors.js";
import { holdsNonIriCharacter } from "../validation/iri.js";
import {
  checkLength,
  isJsonObject,
  readArray,
  readBodyObject,
  rejectUnknownFields,
  requiredField,
} from "../validation/json-input.js";

// Item count is the contract's; the string bounds are not fixed there and are chosen as any careful
// API would bound stored strings (2048 matches the rebuild API's URL limit).
const SERVER_LIMITS = {
  servers: { min: 1, max: 100 },
  address: { min: 1, max: 2048 },
  product: { min: 1, max: 100 },
} as const;

export interface ServerToConnect {
  address: string;
  product: string;
}

/** Validates the body of `POST /si/servers`, collecting every field error. */
export function parseConnectServersBody(body: unknown): ServerToConnect[] {
  const errors = new FieldErrorList();
  const root = readBodyObject(body, errors);
  if (!root) throw errors.toError();
  rejectUnknownFields(root, ["servers"], "", errors);
  const items = readArray(
    requiredField(root, "servers", "", errors),
    SERVER_LIMITS.servers,
    "servers",
    errors,
  );
  const servers: ServerToConnect[] = [];
  items?.forEach((item, index) => {
    const path = joinPath("servers", index);
    if (!isJsonObject(item)) {
      errors.add("invalid_type", path, "Each server must be an object");
      return;
    }
    rejectUnknownFields(item, ["address", "product"], path, errors);
    const address = requiredField(item, "address", path, errors);
    const product = requiredField(item, "product", path, errors);
    const addressOk = address === undefined || checkAddress(address, joinPath(path, "address"), errors);
    const productOk = product === undefined || checkProduct(product, joinPath(path, "product"), errors);
    if (addressOk && productOk && typeof address === "string" && typeof product === "string") {
      servers.push({ address, product });
    }
  });
  errors.throwIfAny();
  return servers;
}

/** A server address as `POST /si/servers` accepts it; records the problem and returns false otherwise. */
export function checkAddress(value: unknown, path: string, errors: FieldErrorList): boolean {
  if (typeof value !== "string") {
    errors.add("invalid_type", path, "Must be a string");
    return false;
  }
  if (!checkLength(value, SERVER_LIMITS.address, path, errors)) return false;
  if (!isAbsoluteHttpUrl(value)) {
    errors.add("invalid_format", path, "Must be an absolute http or https URL");
    return false;
  }
  return true;
}

/** A server product as `POST /si/servers` accepts it; records the problem and returns false otherwise. */
export function checkProduct(value: unknown, path: string, errors: FieldErrorList): boolean {
  if (typeof value !== "string") {
    errors.add("invalid_type", path, "Must be a string");
    return false;
  }
  return checkLength(value, SERVER_LIMITS.product, path, errors);
}

/**
 * Addresses are stored as sent and answered as `format: iri`, so a character no IRI may hold makes
 * the address invalid, even where the WHATWG parser would drop or encode it.
 */
function isAbsoluteHttpUrl(value: string): boolean {
  if (holdsNonIriCharacter(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
