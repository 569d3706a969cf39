// Readers for the values a world snapshot holds that no request or seed field has the same shape
// for (instants, counters, string maps). Built on the shared validation helpers, with the same
// error types and dotted paths as a 400; each returns undefined after recording what is wrong.
import { isSeedTimestamp, parseSeedTimestamp } from "../dashboard/seed-timestamp.js";
import { type FieldErrorList, joinPath } from "../validation/field-errors.js";
import {
  checkLength,
  isJsonObject,
  type JsonObject,
  jsonType,
  rejectUnknownFields,
  requiredField,
} from "../validation/json-input.js";

/** An object with exactly these fields (`optional` ones may be left out); undefined when absent or not an object. */
export function readRecord(
  value: unknown,
  path: string,
  fields: { required: readonly string[]; optional?: readonly string[] },
  errors: FieldErrorList,
): JsonObject | undefined {
  // Absent: the object holding it already reported it as required.
  if (value === undefined) return undefined;
  if (!isJsonObject(value)) {
    errors.add("invalid_type", path, `Must be an object, got ${jsonType(value)}`);
    return undefined;
  }
  rejectUnknownFields(value, [...fields.required, ...(fields.optional ?? [])], path, errors);
  for (const key of fields.required) requiredField(value, key, path, errors);
  return value;
}

/** An array (any length), or undefined with an error. */
export function readList(
  value: unknown,
  path: string,
  errors: FieldErrorList,
): readonly unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (value !== undefined) errors.add("invalid_type", path, `Must be an array, got ${jsonType(value)}`);
  return undefined;
}

/** A string of `min` to `max` characters. Absent values were reported by `readRecord`. */
export function readText(
  value: unknown,
  path: string,
  errors: FieldErrorList,
  bounds: { min: number; max: number } = { min: 1, max: 256 },
): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") {
    errors.add("invalid_type", path, `Must be a string, got ${jsonType(value)}`);
    return undefined;
  }
  return checkLength(value, bounds, path, errors) ? value : undefined;
}

/** An integer from `min` to `max`. */
export function readInteger(
  value: unknown,
  path: string,
  errors: FieldErrorList,
  bounds: { min: number; max: number },
): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    errors.add("invalid_type", path, `Must be an integer, got ${jsonType(value)}`);
  } else if (value < bounds.min) {
    errors.add("too_small", path, `Must be at least ${bounds.min}`);
  } else if (value > bounds.max) {
    errors.add("too_big", path, `Must be at most ${bounds.max}`);
  } else {
    return value;
  }
  return undefined;
}

/** How many items a bounded log dropped. */
export function readCount(value: unknown, path: string, errors: FieldErrorList): number | undefined {
  return readInteger(value, path, errors, { min: 0, max: Number.MAX_SAFE_INTEGER });
}

/** An RFC 3339 date-time with an offset, in years 0000 to 9999, as epoch ms (the seed's timestamp rule). */
export function readInstant(value: unknown, path: string, errors: FieldErrorList): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !isSeedTimestamp(value)) {
    errors.add(
      "invalid_format",
      path,
      "Must be an RFC 3339 date-time with an offset, such as 2026-01-01T00:00:00.000Z",
    );
    return undefined;
  }
  return parseSeedTimestamp(value);
}

/** A JSON object of string values (headers). */
export function readStringMap(
  value: unknown,
  path: string,
  errors: FieldErrorList,
): Record<string, string> | undefined {
  if (!isJsonObject(value)) {
    if (value !== undefined) errors.add("invalid_type", path, `Must be an object, got ${jsonType(value)}`);
    return undefined;
  }
  const entries: Array<[string, string]> = [];
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === "string") entries.push([key, item]);
    else errors.add("invalid_type", joinPath(path, key), `Must be a string, got ${jsonType(item)}`);
  }
  // fromEntries defines own properties, so a key such as `__proto__` stays a plain key.
  return Object.fromEntries(entries);
}
