import { formats } from "../core/formats.js";
import type { ExactCheck, ShapeNode } from "../core/shape.js";

type Json = unknown;
const isObject = (value: Json): value is Record<string, Json> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const same = (a: Json, b: Json) => a === b || JSON.stringify(a) === JSON.stringify(b);
const quote = (values: readonly Json[]) => values.map((value) => JSON.stringify(value)).join(" or ");
const typeName = (value: Json) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);
const codePoints = (text: string) => [...text].length;

/**
 * Each keyword an exact shape carries in `k` (scripts/generate/shapes.mjs: CONSTRAINTS), as JSON
 * Schema 2020-12 reads it: a problem, or undefined. A keyword only constrains values of its type.
 */
export const CONSTRAINTS: Readonly<
  Record<string, (limit: never, value: Json, shape: ShapeNode) => string | undefined>
> = {
  format: (name: string, value) =>
    typeof value === "string" && !formats[name]?.(value) ? `must be a valid ${name}` : undefined,
  pattern: (pattern: string, value) =>
    typeof value === "string" && !new RegExp(pattern, "u").test(value) ? `must match ${pattern}` : undefined,
  minLength: (n: number, value) =>
    typeof value === "string" && codePoints(value) < n ? `must have at least ${n} characters` : undefined,
  maxLength: (n: number, value) =>
    typeof value === "string" && codePoints(value) > n ? `must have at most ${n} characters` : undefined,
  minimum: (n: number, value) =>
    typeof value === "number" && value < n ? `must be at least ${n}` : undefined,
  maximum: (n: number, value) =>
    typeof value === "number" && value > n ? `must be at most ${n}` : undefined,
  exclusiveMinimum: (n: number, value) =>
    typeof value === "number" && value <= n ? `must be more than ${n}` : undefined,
  exclusiveMaximum: (n: number, value) =>
    typeof value === "number" && value >= n ? `must be less than ${n}` : undefined,
  // As Ajv decides it (a quotient that parseInt changes is no multiple), which differs from exact
  // arithmetic only for quotients beyond 10^21.
  multipleOf: (n: number, value) =>
    typeof value === "number" && value / n !== Number.parseInt(String(value / n), 10)
      ? `must be a multiple of ${n}`
      : undefined,
  minItems: (n: number, value) =>
    Array.isArray(value) && value.length < n ? `must have at least ${n} items` : undefined,
  maxItems: (n: number, value) =>
    Array.isArray(value) && value.length > n ? `must have at most ${n} items` : undefined,
  uniqueItems: (unique: boolean, value) =>
    unique &&
    Array.isArray(value) &&
    value.some((item, n) => value.findIndex((other) => same(other, item)) < n)
      ? "must not repeat an item"
      : undefined,
  minProperties: (n: number, value) =>
    isObject(value) && Object.keys(value).length < n ? `must have at least ${n} properties` : undefined,
  maxProperties: (n: number, value) =>
    isObject(value) && Object.keys(value).length > n ? `must have at most ${n} properties` : undefined,
  dependentRequired: (dependencies: Record<string, string[]>, value) => {
    if (!isObject(value)) return undefined;
    for (const [name, needs] of Object.entries(dependencies)) {
      const missing = Object.hasOwn(value, name) && needs.find((need) => !Object.hasOwn(value, need));
      if (missing) return `${missing} is required when ${name} is present`;
    }
    return undefined;
  },
  additionalProperties: (_: false, value, shape) => {
    const extra = isObject(value) && Object.keys(value).find((name) => !Object.hasOwn(shape.p ?? {}, name));
    return extra ? `unknown property ${extra}` : undefined;
  },
};

/** Why an integer the contract allows is refused all the same. */
const UNSAFE_INTEGER = "must be within ±(2^53 - 1): JSON numbers beyond lose digits";

/**
 * The exact half of a check: `const` and `enum` bind, a discriminated union needs its
 * discriminator and one of the values it maps, every keyword of `k` holds, and an integer is one
 * JavaScript holds exactly (the one rule beyond the schema). Messages may quote
 * the schema's values, never the value received.
 */
export const exactCheck: ExactCheck = (shape, value, problem) => {
  // JSON.parse rounds an integer beyond ±(2^53 - 1) to a neighbour: the value read may not be the
  // one sent. (Where the schema allows any number, one that is not exact is no surprise.)
  const { t = "" } = shape;
  if (
    t.includes("integer") &&
    !t.includes("number") &&
    typeof value === "number" &&
    !Number.isSafeInteger(value)
  )
    problem(UNSAFE_INTEGER);
  const allowed = "c" in shape ? [shape.c] : shape.e;
  if (allowed && !allowed.some((option) => same(option, value))) problem(`expected ${quote(allowed)}`);
  const { m, d = "" } = shape;
  if (m) {
    if (!isObject(value)) problem(`expected object, got ${typeName(value)}`);
    else if (!Object.hasOwn(value, d)) problem("required", `.${d}`);
    else if (typeof value[d] !== "string" || !Object.hasOwn(m, value[d] as string)) {
      problem(`expected ${quote(Object.keys(m))}`, `.${d}`);
    }
  }
  for (const [keyword, limit] of Object.entries(shape.k ?? {})) {
    const check = CONSTRAINTS[keyword];
    // A keyword this receiver does not know rejects rather than passes (the generator lists them all).
    const message = check ? check(limit as never, value, shape) : `cannot check ${keyword}`;
    if (message) problem(message);
  }
};
