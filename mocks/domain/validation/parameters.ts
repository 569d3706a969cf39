// How parameter text becomes the value its schema checks, once for every operation of every document
// (contract-decisions, "Query strings"): a known parameter given twice or with an empty value is a
// 400; an integer is base-10 digits only (leading zeros accepted), read exactly and never clamped, so
// the compiled schema's limits decide. Path parameters are stricter: an id that cannot exist is a 404
// (the caller's), never a 400.
import type { ParameterType, ParameterValidator } from "../../../src/generated/validator-types.js";
import { type FieldError, validationFailed } from "../errors.js";
import { duplicateOf, fieldErrorsOf } from "./schema-errors.js";

const DIGITS = /^[0-9]+$/;
const CANONICAL_DIGITS = /^(?:0|[1-9][0-9]*)$/;
const DECIMAL = /^[0-9]+(?:\.[0-9]+)?$/;

/**
 * The query (or header) parameters of an operation, typed and with their defaults, read through
 * `valuesOf` (every value given for a name). VALIDATION_FAILED names each bad parameter by its name.
 */
export function readParameters<T>(
  validator: ParameterValidator,
  valuesOf: (name: string) => readonly string[],
): T {
  const problems: FieldError[] = [];
  const values: Record<string, unknown> = {};
  for (const { name, type } of validator.parameters) {
    const given = valuesOf(name);
    if (given.length > 1) {
      problems.push(duplicateOf(name, `parameter ${name}`));
    } else if (given[0] === "") {
      problems.push({ type: "too_small", path: name, message: "must not be empty" });
    } else if (given[0] !== undefined) {
      values[name] = typed(given[0], type, DIGITS);
    }
  }
  if (!validator.validate(values)) {
    for (const problem of fieldErrorsOf(validator.validate.errors ?? [])) {
      // A parameter already refused for how it was written is not refused again.
      if (!problems.some(({ path }) => path === problem.path)) problems.push(problem);
    }
  }
  if (problems.length > 0) {
    // In the order the operation declares its parameters, however each was refused.
    const order = validator.parameters.map(({ name }) => name);
    throw validationFailed(problems.sort((a, b) => order.indexOf(a.path) - order.indexOf(b.path)));
  }
  return values as T;
}

/**
 * Parameters given as values in-process (a world's operation, where HTTP would have a query string):
 * the operation's declared ones read from `given` (any other key ignored, as over HTTP), checked by
 * the same compiled schema. VALIDATION_FAILED names each bad one by its name.
 */
export function checkedParameters<T>(validator: ParameterValidator, given: unknown): T {
  if (given !== undefined && (typeof given !== "object" || given === null || Array.isArray(given))) {
    throw validationFailed([{ type: "invalid_type", path: "", message: "must be an object" }]);
  }
  const values: Record<string, unknown> = {};
  for (const { name } of validator.parameters) {
    const value = (given as Record<string, unknown> | undefined)?.[name];
    if (value !== undefined) values[name] = value;
  }
  if (!validator.validate(values)) throw validationFailed(fieldErrorsOf(validator.validate.errors ?? []));
  return values as T;
}

/**
 * The path parameters of an operation, typed, or undefined when one names nothing that can exist
 * (an integer with a leading zero or a sign, a GUID that is not one, ...).
 */
export function readPathParameters<T>(
  validator: ParameterValidator,
  given: Readonly<Record<string, string>>,
): T | undefined {
  const values: Record<string, unknown> = {};
  for (const { name, type } of validator.parameters) {
    const text = given[name];
    if (text !== undefined) values[name] = typed(text, type, CANONICAL_DIGITS);
  }
  return validator.validate(values) ? (values as T) : undefined;
}

/** The value `text` stands for, or the text itself when it spells none (the schema then refuses it). */
function typed(text: string, type: ParameterType, integer: RegExp): unknown {
  if (type === "integer" && integer.test(text)) return integerOf(text);
  if (type === "number" && DECIMAL.test(text)) return Number(text);
  if (type === "boolean" && (text === "true" || text === "false")) return text === "true";
  return text;
}

/** Past any limit a schema can state, a huge number stays finite so `maximum` (not the type) refuses it. */
function integerOf(digits: string): number {
  const value = Number(digits);
  return Number.isFinite(value) ? value : Number.MAX_VALUE;
}
