// The one adapter from what a compiled schema reports (Ajv's error objects) to the contract's field
// errors (contract-decisions: `type`, dotted `path`, `message`). Every 400 of the mock that comes from
// a schema goes through here, so a kind of problem always gets the same type and wording.
import { FORMAT_DESCRIPTIONS } from "../../../src/core/formats.js";
import { patternDescriptions as dashboardPatterns } from "../../../src/generated/dashboard-validators.js";
import { patternDescriptions as controlPatterns } from "../../../src/generated/mock-control-validators.js";
import { patternDescriptions as rebuildPatterns } from "../../../src/generated/rebuild-validators.js";
import type { SchemaIssue } from "../../../src/generated/validator-types.js";
import type { FieldError, FieldErrorType } from "../errors.js";

// What each pattern of the documents means, from their `x-pattern-description`s.
const PATTERNS: Readonly<Record<string, string>> = {
  ...dashboardPatterns,
  ...rebuildPatterns,
  ...controlPatterns,
};

/** Dotted path of a child: `joinPath("claims", 0)` is `claims.0`; the root is `""`. */
export function joinPath(base: string, key: string | number): string {
  return base === "" ? String(key) : `${base}.${key}`;
}

/** `base` with each key appended: `pathOf("rebuilds", 0, "requestId")` is `rebuilds.0.requestId`. */
export function pathOf(base: string, ...keys: Array<string | number>): string {
  return keys.reduce<string>(joinPath, base);
}

/**
 * Where each key was first given (`seen`: key → path): a key seen before is a `duplicate` at
 * `where`, pushed to `problems` in the one wording (`duplicateOf`). True for a first occurrence.
 */
export function firstGiven<K>(
  seen: Map<K, string>,
  key: K,
  where: string,
  what: string,
  problems: FieldError[],
): boolean {
  const first = seen.get(key);
  if (first === undefined) {
    seen.set(key, where);
    return true;
  }
  problems.push(duplicateOf(where, what, first));
  return false;
}

/**
 * The one wording of a `duplicate` (a predicate, like every message): the value at `path` repeats
 * `what` (a noun and, unless it is a secret, the value: `claim mcp`, `partner id 1001`), first given at
 * `first`, a dotted path from the same root. A query parameter given twice has no earlier path of its
 * own, so its message ends after `what`.
 */
export function duplicateOf(path: string, what: string, first?: string): FieldError {
  const message =
    first === undefined ? `must not repeat ${what}` : `must not repeat ${what} (first at ${first})`;
  return { type: "duplicate", path, message };
}

/**
 * One field error per invalid field, in the order the schema found them, below `base` (a dotted
 * path; `""` for a body). A union that failed (`anyOf`, a `oneOf` without a discriminator) speaks
 * through its branches: those of the value's type say what is wrong (their "must be …" joined with
 * "or"); when no branch takes the value's type, it is one `invalid_type` naming the types allowed.
 * This reads a union's branch errors as the ones just before it at or below its value, so the
 * documents give a union no other assertions beside it.
 */
export function fieldErrorsOf(issues: readonly SchemaIssue[], base = ""): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of withoutContainsTrials(issues)) {
    if (issue.keyword !== "anyOf" && issue.keyword !== "oneOf") {
      const error = fieldErrorOf(issue, base);
      if (error) errors.push(error);
      continue;
    }
    const at = dotted(base, issue.instancePath);
    let first = errors.length;
    while (first > 0 && within(errors[first - 1]?.path ?? "", at)) first--;
    errors.splice(first, errors.length - first, ...unionErrors(errors.slice(first), at));
  }
  const byPath = new Map<string, FieldError>();
  for (const error of errors) if (!byPath.has(error.path)) byPath.set(error.path, error);
  // An object with fields it may not have: the unknown fields say it; "must be empty" adds nothing.
  return [...byPath.values()].filter(
    (error, _index, all) =>
      !(
        error.type === "too_big" &&
        error.message === "must be empty" &&
        all.some((other) => other.type === "unknown_field" && other.path.startsWith(`${error.path}.`))
      ),
  );
}

/**
 * "At most one" of a kind of item (`if: { contains: X }, then: { contains: X, maxContains: 1 }`, each
 * claim name at most once) reports, when there are two, its `then`'s `contains`, the `if`, and the
 * issues of every item that did not match the `contains` (Ajv keeps them): trials, not problems of the
 * items. Its subschemas are written inline in the documents, so all of them lie below the `then`'s
 * schema path; the operation reports the later occurrence itself.
 */
function withoutContainsTrials(issues: readonly SchemaIssue[]): readonly SchemaIssue[] {
  const groups = issues.flatMap((issue) => {
    const then =
      issue.keyword === "contains" ? /^(.*\/then)\/contains$/.exec(issue.schemaPath)?.[1] : undefined;
    return then === undefined ? [] : [then];
  });
  if (groups.length === 0) return issues;
  return issues.filter(
    (issue) =>
      !groups.some((group) => issue.schemaPath === group || issue.schemaPath.startsWith(`${group}/`)),
  );
}

/** What a failed union at `at` reports, from the errors its branches left (at or below `at`). */
function unionErrors(branches: readonly FieldError[], at: string): FieldError[] {
  const wrongType = branches.filter((e) => e.path === at && e.type === "invalid_type");
  const rest = branches.filter((e) => !(e.path === at && e.type === "invalid_type"));
  if (rest.length === 0) {
    const types = [...new Set(wrongType.map((e) => e.message.replace(/^must be /, "")))];
    return [{ type: "invalid_type", path: at, message: `must be ${types.join(" or ")}` }];
  }
  const here = rest.filter((e) => e.path === at);
  if (here.length <= 1) return rest;
  const said = [...new Set(here.map((e) => e.message.replace(/^must be /, "")))];
  const joined: FieldError = {
    type: here[0]?.type ?? "invalid_value",
    path: at,
    message: `must be ${said.join(", or ")}`,
  };
  return [joined, ...rest.filter((e) => e.path !== at)];
}

function within(path: string, at: string): boolean {
  return path === at || at === "" || path.startsWith(`${at}.`);
}

function fieldErrorOf(issue: SchemaIssue, base: string): FieldError | undefined {
  const at = dotted(base, issue.instancePath);
  const { params } = issue;
  const of = (type: FieldErrorType, path: string, message: string): FieldError => ({ type, path, message });
  if (issue.propertyName !== undefined) {
    // A key of a map that its schema does not allow: the error is about the key itself.
    return of("invalid_value", joinPath(at, issue.propertyName), "is not an allowed key here");
  }
  switch (issue.keyword) {
    case "required":
      return of("required", joinPath(at, String(params.missingProperty)), "is required");
    case "dependentRequired":
      return of(
        "required",
        joinPath(at, String(params.missingProperty)),
        `is required when ${String(params.property)} is given`,
      );
    case "type":
      return of("invalid_type", at, `must be ${typeNames(String(params.type))}`);
    case "format":
      return of(
        "invalid_format",
        at,
        `must be ${FORMAT_DESCRIPTIONS[String(params.format)] ?? `of format ${String(params.format)}`}`,
      );
    case "pattern": {
      const described = PATTERNS[String(params.pattern)];
      return of(
        "invalid_format",
        at,
        described ? `must be ${described}` : `must match ${String(params.pattern)}`,
      );
    }
    case "enum":
      return of("invalid_value", at, `must be one of ${listed(params.allowedValues)}`);
    case "const":
      return of("invalid_value", at, `must be ${JSON.stringify(params.allowedValue)}`);
    case "minLength":
      return params.limit === 1
        ? of("too_small", at, "must not be empty")
        : of("too_small", at, `must be at least ${count(params.limit, "character")}`);
    case "maxLength":
      return of("too_big", at, `must be at most ${count(params.limit, "character")}`);
    case "minItems":
      return of("too_small", at, `must contain at least ${count(params.limit, "item")}`);
    case "maxItems":
      return of("too_big", at, `must contain at most ${count(params.limit, "item")}`);
    case "minProperties":
      return of("too_small", at, `must have at least ${count(params.limit, "field")}`);
    case "maxProperties":
      return params.limit === 0
        ? of("too_big", at, "must be empty")
        : of("too_big", at, `must have at most ${count(params.limit, "field")}`);
    case "minimum":
      return of("too_small", at, `must be at least ${String(params.limit)}`);
    case "maximum":
      return of("too_big", at, `must be at most ${String(params.limit)}`);
    case "exclusiveMinimum":
      return of("too_small", at, `must be greater than ${String(params.limit)}`);
    case "exclusiveMaximum":
      return of("too_big", at, `must be less than ${String(params.limit)}`);
    case "multipleOf":
      return of("invalid_value", at, `must be a multiple of ${String(params.multipleOf)}`);
    case "uniqueItems": {
      // Ajv names the two equal items `i` and `j`, in either order depending on the item type.
      const [first, later] = [Number(params.i), Number(params.j)].sort((a, b) => a - b);
      return duplicateOf(joinPath(at, String(later)), "an item", joinPath(at, String(first)));
    }
    case "additionalProperties":
      return of("unknown_field", joinPath(at, String(params.additionalProperty)), "is not a known field");
    case "unevaluatedProperties":
      return of("unknown_field", joinPath(at, String(params.unevaluatedProperty)), "is not a known field");
    case "not":
      // The contract writes a field that must be absent as `not: {}`.
      return of("unknown_field", at, "is not allowed here");
    // A discriminated union checks its tag with `required` and `enum` beside it (the generator adds
    // them), an `if` reports through its `then` or `else`, and a refused key was reported as the key:
    // these say nothing more.
    case "discriminator":
    case "if":
    case "propertyNames":
      return undefined;
    // A `contains` outside "at most one" (withoutContainsTrials) cannot say which item it means.
    case "contains":
      return of("invalid_value", at, "does not hold the items it must");
    default:
      return of("invalid_value", at, "is not valid here");
  }
}

function dotted(base: string, pointer: string): string {
  if (pointer === "") return base;
  return pointer
    .slice(1)
    .split("/")
    .reduce((path, token) => joinPath(path, token.replaceAll("~1", "/").replaceAll("~0", "~")), base);
}

const ARTICLES: Readonly<Record<string, string>> = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  null: "null",
};

function typeNames(types: string): string {
  return types
    .split(",")
    .map((type) => ARTICLES[type] ?? type)
    .join(" or ");
}

function listed(values: unknown): string {
  return Array.isArray(values) ? values.map((value) => String(value)).join(", ") : String(values);
}

function count(limit: unknown, noun: string): string {
  return `${String(limit)} ${limit === 1 ? noun : `${noun}s`}`;
}
