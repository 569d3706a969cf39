// Finds the contract's assumed elements (`x-assumed: true`) for the reference docs: one entry per
// element with a human label, the reason from its description and the docs route it is shown on;
// and marks them in a copy of the document so that Redoc renders a visible badge.
import { ASSUMED_BADGE_HTML, ASSUMED_OPERATION_BADGE } from "./docs-badge.js";

type Node = Record<string, unknown>;

export interface AssumedElement {
  /** RFC 6901 pointer into the OpenAPI document. */
  pointer: string;
  /** Where a reader finds it, e.g. `POST /si/servers → 201` or `schema Error.error.code`. */
  label: string;
  /** The first paragraph of its description, without the leading "Assumed:" (Markdown). */
  reason: string;
  /** Redoc's hash route of the operation the element belongs to; `undefined` for components. */
  route: string | undefined;
}

const ASSUMED_PREFIX = /^Assumed:\s*/;
const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
// Example payloads are data, not contract elements: a key named `x-assumed` in one is not a mark.
const NOT_ELEMENTS = new Set(["example", "examples"]);

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function escapeToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

function unescapeToken(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** Every marked node with its pointer, in document order. */
function walkAssumed(node: unknown, pointer: string, found: { pointer: string; node: Node }[]): void {
  if (Array.isArray(node)) {
    node.forEach((item, index) => {
      walkAssumed(item, `${pointer}/${index}`, found);
    });
    return;
  }
  if (!isNode(node)) return;
  if (node["x-assumed"] === true) found.push({ pointer, node });
  for (const [key, value] of Object.entries(node)) {
    if (!NOT_ELEMENTS.has(key)) walkAssumed(value, `${pointer}/${escapeToken(key)}`, found);
  }
}

function at(document: Node, tokens: readonly string[]): Node {
  let current: unknown = document;
  for (const token of tokens) {
    if (Array.isArray(current)) current = current[Number(token)];
    else current = isNode(current) ? current[token] : undefined;
  }
  if (!isNode(current)) throw new Error(`no object at /${tokens.map(escapeToken).join("/")}`);
  return current;
}

/** Redoc's route for an operation: `#/<tag slug>/<operationId in lower case>`. */
export function operationRoute(operation: Node): string {
  const tag = Array.isArray(operation.tags) ? String(operation.tags[0]) : "";
  const slug = tag.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  return `#/${slug}/${String(operation.operationId).toLowerCase()}`;
}

function parameterLabel(parameter: Node): string {
  return `parameter ${String(parameter.name)} (in ${String(parameter.in)})`;
}

/**
 * `Error/properties/error/properties/code` → `Error.error.code`; `items` and `contains` → `[]`; allOf,
 * oneOf, anyOf branches, `not`, `if` and `then` vanish.
 */
function schemaPath(tokens: readonly string[]): string {
  let label = tokens[0] ?? "";
  for (let i = 1; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === "properties") label += `.${tokens[++i]}`;
    // `contains` counts items (each claim name at most once): its schema describes one item.
    else if (token === "items" || token === "contains") label += "[]";
    else if (token === "allOf" || token === "oneOf" || token === "anyOf") i++;
    else if (token === "not" || token === "if" || token === "then") continue;
    else throw new Error(`docs: no label for schema keyword "${token}" in ${tokens.join("/")}`);
  }
  return label;
}

/** The part of a label below an operation: `201`, `default → header Allow`, `request body`. */
function operationPartLabel(operation: Node, tokens: readonly string[]): string {
  const [kind, key, sub, name] = tokens;
  if (kind === undefined) return "";
  if (kind === "requestBody" && tokens.length === 1) return "request body";
  if (kind === "parameters" && key !== undefined && tokens.length === 2) {
    return parameterLabel(at(operation, ["parameters", key]));
  }
  if (kind === "responses" && key !== undefined) {
    if (tokens.length === 2) return key;
    if (sub === "headers" && name !== undefined && tokens.length === 4) return `${key} → header ${name}`;
  }
  throw new Error(`docs: no label for operation part ${tokens.join("/")}`);
}

function labelAndRoute(document: Node, tokens: readonly string[]): { label: string; route?: string } {
  const [root, first, second, ...rest] = tokens;
  if ((root === "paths" || root === "webhooks") && first !== undefined && second !== undefined) {
    if (!METHODS.has(second)) throw new Error(`docs: no label for ${tokens.join("/")}`);
    const operation = at(document, [root, first, second]);
    const head =
      root === "paths" ? `${second.toUpperCase()} ${first}` : `webhook ${first} (${second.toUpperCase()})`;
    const part = operationPartLabel(operation, rest);
    return { label: part ? `${head} → ${part}` : head, route: operationRoute(operation) };
  }
  if (root === "components" && second !== undefined) {
    const target = at(document, tokens.slice(0, 3));
    if (first === "schemas") return { label: `schema ${schemaPath([second, ...rest])}` };
    if (rest.length === 0) {
      if (first === "parameters") return { label: parameterLabel(target) };
      if (first === "headers") return { label: `header ${second}` };
      if (first === "securitySchemes") return { label: `security scheme ${second}` };
      if (first === "responses") return { label: `response ${second}` };
      if (first === "requestBodies") return { label: `request body ${second}` };
    }
  }
  throw new Error(`docs: no label for ${tokens.join("/")}`);
}

/** Every assumed element of an OpenAPI document, in document order. */
export function collectAssumed(document: Node): AssumedElement[] {
  const found: { pointer: string; node: Node }[] = [];
  walkAssumed(document, "", found);
  return found.map(({ pointer, node }) => {
    const description = typeof node.description === "string" ? node.description : "";
    if (!ASSUMED_PREFIX.test(description)) {
      throw new Error(`docs: ${pointer} is x-assumed but its description does not start with "Assumed:"`);
    }
    const tokens = pointer.slice(1).split("/").map(unescapeToken);
    const { label, route } = labelAndRoute(document, tokens);
    // The first paragraph gives the reason; an operation's further paragraphs describe its behaviour.
    const reason =
      description
        .replace(ASSUMED_PREFIX, "")
        .split(/\n\s*\n/)[0]
        ?.trim() ?? "";
    return { pointer, label, reason, route };
  });
}

/**
 * A copy of the document in which every assumed element's description starts with the badge
 * instead of "Assumed:", every assumed operation and webhook carries a Redoc `x-badges` entry (shown
 * next to its title and in the sidebar), and the overview says what the badge means.
 */
export function markAssumed(document: Node, assumptionsHref: string): Node {
  const copy = structuredClone(document);
  const found: { pointer: string; node: Node }[] = [];
  walkAssumed(copy, "", found);
  for (const { node } of found) {
    node.description = String(node.description).replace(ASSUMED_PREFIX, `${ASSUMED_BADGE_HTML} `);
    if (typeof node.operationId === "string") node["x-badges"] = [{ ...ASSUMED_OPERATION_BADGE }];
  }
  const info = at(copy, ["info"]);
  info.description =
    `> ${ASSUMED_BADGE_HTML} marks an element that the provider's documentation does not state: a decision ` +
    `of this contract, with its reason. [Confirmed vs assumed](${assumptionsHref}) lists them all.\n\n` +
    String(info.description ?? "");
  return copy;
}
