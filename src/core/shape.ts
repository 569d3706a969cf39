/**
 * A JSON Schema reduced to what a check needs, generated from the contract by `npm run generate`
 * (scripts/generate/shapes.mjs) into src/generated/. `false` allows nothing (a field that must be
 * absent). Keys are one letter because the tables ship in every app that uses the clients.
 */
export type Shape = false | ShapeNode;

export interface ShapeNode {
  /** Allowed JSON types, as a message names them (`"string or null"`); where `number` is, so is `integer`. */
  readonly t?: string;
  /** Shapes of the known properties, required ones first; other properties are always allowed. */
  readonly p?: Readonly<Record<string, Shape>>;
  /** How many of the properties in `p`, from the first, are required. */
  readonly r?: number;
  /** Shape of every array item. */
  readonly i?: Shape;
  /** Alternatives (`oneOf`/`anyOf`) by the value of the discriminator `d` that picks each. */
  readonly m?: Readonly<Record<string, Shape>>;
  /** The discriminator property. */
  readonly d?: string;
  /** `const` (exact shapes only). */
  readonly c?: unknown;
  /** `enum` (exact shapes only). */
  readonly e?: readonly unknown[];
  /** Other JSON Schema keywords (exact shapes only), for the `exact` argument of `checkShape`. */
  readonly k?: Readonly<Record<string, unknown>>;
  /**
   * The JSON pointer of the contract element this node checks when the contract marks it
   * `x-assumed` (response shapes only; decisions/039); `true` on a body whose operation's own response
   * is marked, whose pointer the check writes (`/paths/…/responses/<status>`). No mark: the
   * provider's documents state it.
   */
  readonly a?: string | true;
}

/** Success response shapes of a document by `METHOD /path` and status; `null`: no body. */
export type ResponseShapes = Readonly<Record<string, Readonly<Record<string, Shape | null>>>>;

/** One way a value fails its shape, at `path`: a JSON path such as `$.data[0].guid` (`$`: the value). */
export interface ShapeIssue {
  readonly path: string;
  readonly message: string;
  /** The mark (`a`) of the assumed contract element the problem is in; none when it is confirmed. */
  readonly assumed?: string | true | undefined;
}

/**
 * What exact shapes add to the structure (`c`, `e`, `k`), checked by the webhook receiver; it calls
 * `problem` for each (`at`, e.g. `.status`, is appended to the value's path). With it, a
 * discriminator value no alternative names is its problem alone.
 */
export type ExactCheck = (
  shape: ShapeNode,
  value: unknown,
  problem: (message: string, at?: string) => void,
) => void;

/**
 * Every problem of `value` (parsed JSON) against `shape`, added to `out`; none means it holds.
 * Messages name JSON types, never the value found (a body may carry a secret). Unknown properties
 * are allowed, and without `exact` so is any string where the schema lists values: the API may
 * grow. It runs on every response, so the path walked is a stack of keys, written out
 * (`$.data[0].guid`) only for a problem: a value that holds builds no string.
 */
export function checkShape(
  shape: Shape,
  value: unknown,
  exact?: ExactCheck,
  keys: (string | number)[] = [],
  out: ShapeIssue[] = [],
): ShapeIssue[] {
  // The JSON type as JSON Schema names it; no name is part of another (or of "or"), so `includes`
  // is exact.
  const kind =
    value === null
      ? "null"
      : Array.isArray(value)
        ? "array"
        : Number.isInteger(value)
          ? "integer"
          : typeof value;
  if (!shape) report(out, keys, "not allowed");
  else if (shape.t && shape.t !== kind && !shape.t.includes(kind))
    report(out, keys, `expected ${shape.t}, got ${kind}`, "", shape.a);
  else {
    const { p, r = 0, i, m, d } = shape;
    exact?.(shape, value, (message, at) => report(out, keys, message, at, shape.a));
    if (m) {
      // The discriminator's value picks the alternative. Another value (or none) tries them all, so
      // a new kind with the shape of a known one passes; in exact mode that is the exact check's
      // problem alone.
      const tag = (value as Record<string, unknown> | null)?.[d as string] as string;
      const failed = (Object.hasOwn(m, tag) ? [m[tag] as Shape] : exact ? [] : Object.values(m)).map((alt) =>
        checkShape(alt, value, exact, keys),
      );
      if (failed.every((issues) => issues.length)) out.push(...(failed[0] ?? []));
    }
    if (p && kind === "object") {
      let n = 0;
      for (const name in p) {
        if (Object.hasOwn(value as object, name)) {
          keys.push(name);
          checkShape(p[name] as Shape, (value as Record<string, unknown>)[name], exact, keys, out);
          keys.pop();
        } else if (n < r) report(out, keys, "required", `.${name}`, (p[name] || undefined)?.a);
        n++;
      }
    }
    if (i !== undefined && kind === "array") {
      for (let n = 0; n < (value as unknown[]).length; n++) {
        keys.push(n);
        checkShape(i, (value as unknown[])[n], exact, keys, out);
        keys.pop();
      }
    }
  }
  return out;
}

function report(
  out: ShapeIssue[],
  keys: readonly (string | number)[],
  message: string,
  at = "",
  assumed?: string | true,
): void {
  const path = keys.map((key) => (typeof key === "number" ? `[${key}]` : `.${key}`)).join("");
  out.push({ path: `$${path}${at}`, message, assumed });
}
