// Walks a JSON value through the schema that describes it, in the reduced contract document
// (src/generated/assumptions.ts), noting the elements the value passed through and the first place
// it disagreed. Only what the SDK itself checks on a response is judged (decisions/038): types,
// required properties, `const`/`enum`, and the branch of a union. Formats, lengths and patterns
// are the request validators' business, not evidence about the service's shapes.

export type Node = Readonly<Record<string, unknown>>;

export function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const escapeToken = (token: string) => token.replaceAll("~", "~0").replaceAll("/", "~1");
const unescapeToken = (token: string) => token.replaceAll("~1", "/").replaceAll("~0", "~");

export function join(pointer: string, ...tokens: (string | number)[]): string {
  return pointer + tokens.map((token) => `/${escapeToken(String(token))}`).join("");
}

/** The node at an RFC 6901 pointer; `undefined` when it leads nowhere. */
export function resolve(root: unknown, pointer: string): unknown {
  if (pointer === "") return root;
  let at: unknown = root;
  for (const token of pointer.slice(1).split("/")) {
    if (!isNode(at) && !Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[unescapeToken(token)];
  }
  return at;
}

/** A node with its `$ref`s followed: the node and the pointer it lives at. */
export function followRefs(root: unknown, node: unknown, at: string): { node: unknown; at: string } {
  let current = { node, at };
  for (let hops = 0; hops < 20 && isNode(current.node) && typeof current.node.$ref === "string"; hops++) {
    const target = current.node.$ref.startsWith("#") ? current.node.$ref.slice(1) : "";
    current = { node: resolve(root, target), at: target };
  }
  return current;
}

/** A disagreement: the innermost element holding it, and every element it sits in (outermost first). */
interface Failure {
  pointer: string;
  chain: readonly string[];
  evidence: string;
}

export interface WalkResult {
  /** Elements (component schemas and properties) the value passed through. */
  visited: Set<string>;
  failures: Failure[];
}

const COMPONENT_SCHEMA = /^\/components\/schemas\/[^/]+$/;
// A value nested deeper than this is not walked further (the mock refuses JSON deeper than 64 levels).
const MAX_DEPTH = 64;

/** Walks `value` through `schema` (found at `at`), below the elements `chain`, naming it `where`. */
export function walk(
  root: unknown,
  schema: unknown,
  at: string,
  value: unknown,
  chain: readonly string[],
  where: string,
): WalkResult {
  const result: WalkResult = { visited: new Set(), failures: [] };
  visit(root, schema, at, value, chain, where, result, 0);
  return result;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function typeMatches(expected: unknown, actual: string): boolean {
  const types = Array.isArray(expected) ? expected : [expected];
  return types.some((type) => type === actual || (type === "number" && actual === "integer"));
}

function visit(
  root: unknown,
  schema: unknown,
  schemaAt: string,
  value: unknown,
  chain: readonly string[],
  where: string,
  result: WalkResult,
  depth: number,
): void {
  if (depth > MAX_DEPTH) return;
  const followed = followRefs(root, schema, schemaAt);
  const node = followed.node;
  if (!isNode(node)) return;
  let inner = chain;
  if (followed.at !== schemaAt && COMPONENT_SCHEMA.test(followed.at)) {
    inner = [...chain, followed.at];
    result.visited.add(followed.at);
  }
  const fail = (evidence: string, pointer = inner.at(-1) ?? "") =>
    result.failures.push({
      pointer,
      chain: pointer === inner.at(-1) ? inner : [...inner, pointer],
      evidence,
    });
  const at = followed.at;
  const actual = typeOf(value);
  if (node.type !== undefined && !typeMatches(node.type, actual)) {
    fail(
      `${where} is ${actual === "undefined" ? "absent" : `a ${actual}`}, not ${[node.type].flat().join(" or ")}`,
    );
    return;
  }
  if (node.const !== undefined && value !== node.const)
    fail(`${where} is not the one value the contract gives`);
  if (Array.isArray(node.enum) && !node.enum.includes(value as never))
    fail(`${where} holds a value the contract does not list`);
  if (Array.isArray(node.allOf)) {
    for (const [index, branch] of node.allOf.entries()) {
      visit(root, branch, join(at, "allOf", index), value, inner, where, result, depth + 1);
    }
  }
  const union = Array.isArray(node.oneOf) ? "oneOf" : Array.isArray(node.anyOf) ? "anyOf" : undefined;
  if (union) visitUnion(root, node, union, at, value, inner, where, result, depth, fail);
  if (actual === "object" && isNode(value)) {
    const properties = isNode(node.properties) ? node.properties : {};
    for (const name of Array.isArray(node.required) ? node.required : []) {
      if (typeof name !== "string" || Object.hasOwn(value, name)) continue;
      const property = join(at, "properties", name);
      fail(`${where}.${name} absent`, Object.hasOwn(properties, name) ? property : (inner.at(-1) ?? ""));
    }
    for (const [name, sub] of Object.entries(properties)) {
      if (!Object.hasOwn(value, name)) continue;
      const property = join(at, "properties", name);
      result.visited.add(property);
      visit(root, sub, property, value[name], [...inner, property], `${where}.${name}`, result, depth + 1);
    }
  }
  if (actual === "array" && Array.isArray(value) && node.items !== undefined) {
    for (const [index, item] of value.entries()) {
      visit(root, node.items, join(at, "items"), item, inner, `${where}[${index}]`, result, depth + 1);
    }
  }
}

function visitUnion(
  root: unknown,
  node: Node,
  union: "oneOf" | "anyOf",
  at: string,
  value: unknown,
  chain: readonly string[],
  where: string,
  result: WalkResult,
  depth: number,
  fail: (evidence: string) => void,
): void {
  const branches = node[union] as unknown[];
  // Each branch tried on its own: the first one the value fits is the one walked for real.
  for (const [index, branch] of branches.entries()) {
    const trial: WalkResult = { visited: new Set(), failures: [] };
    visit(root, branch, join(at, union, index), value, chain, where, trial, depth + 1);
    if (trial.failures.length === 0) {
      for (const pointer of trial.visited) result.visited.add(pointer);
      return;
    }
  }
  fail(`${where} fits none of the contract's forms`);
}
