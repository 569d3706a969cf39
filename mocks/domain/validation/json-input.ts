// Both APIs' validators (and the seed loaders) read parsed JSON with these, so "an object", "a
// character" and "an own field" mean the same everywhere. Each API keeps its own message wording.
import { type FieldErrorList, joinPath } from "./field-errors.js";

/** A JSON object as `JSON.parse` produces it. */
export type JsonObject = Readonly<Record<string, unknown>>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** JSON's name for the type of a value, for "expected X, got Y" messages. */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * The root of a request body. Anything but an object is one error at path `""`; a missing body
 * (`undefined`) is `required`, any other non-object `invalid_type`.
 */
export function readBodyObject(body: unknown, errors: FieldErrorList): JsonObject | undefined {
  if (isJsonObject(body)) return body;
  if (body === undefined) errors.add("required", "", "A JSON object body is required");
  else errors.add("invalid_type", "", "The body must be a JSON object");
  return undefined;
}

/** An own property only, so keys such as `constructor` never resolve through the prototype. */
export function ownField(object: JsonObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** One `unknown_field` error per key of `object` not in `allowed`. */
export function rejectUnknownFields(
  object: JsonObject,
  allowed: readonly string[],
  path: string,
  errors: FieldErrorList,
): void {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) errors.add("unknown_field", joinPath(path, key), `Unknown field "${key}"`);
  }
}

/** The value at `key`, recording `required` when it is absent. */
export function requiredField(
  object: JsonObject,
  key: string,
  path: string,
  errors: FieldErrorList,
): unknown {
  const value = ownField(object, key);
  if (value === undefined) errors.add("required", joinPath(path, key), `"${key}" is required`);
  return value;
}

/** Length in Unicode code points, the contract's "characters". */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * Checks a string's length in code points, recording `too_small` or `too_big`; true when it fits.
 * UTF-16 length bounds the code point count from above, which skips the count for short strings.
 */
export function checkLength(
  text: string,
  bounds: { min: number; max: number },
  path: string,
  errors: FieldErrorList,
): boolean {
  if (text.length < bounds.min) {
    errors.add(
      "too_small",
      path,
      bounds.min === 1 ? "Must not be empty" : `Must have at least ${bounds.min} characters`,
    );
    return false;
  }
  if (text.length > bounds.max && codePointLength(text) > bounds.max) {
    errors.add("too_big", path, `Must have at most ${bounds.max} characters`);
    return false;
  }
  return true;
}

/**
 * An array of `min`..`max` items, recording `required`, `invalid_type`, `too_small` or `too_big`
 * at `path`. Returns the array even when its length is out of bounds so its items are checked too.
 */
export function readArray(
  value: unknown,
  bounds: { min: number; max: number },
  path: string,
  errors: FieldErrorList,
): readonly unknown[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    errors.add("invalid_type", path, "Must be an array");
    return undefined;
  }
  if (value.length < bounds.min) errors.add("too_small", path, `Must have at least ${bounds.min} item(s)`);
  else if (value.length > bounds.max) errors.add("too_big", path, `Must have at most ${bounds.max} items`);
  return value;
}
