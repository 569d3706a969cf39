// Provenance of the contract (decisions/003, decisions/020): every element of a document is in one of
// two reviewed lists, assumed (assumed-*.ts: carries `x-assumed: true` and a description starting
// "Assumed:") or confirmed (confirmed-*.ts: carries no mark, and each group quotes the source text that
// states it). An element in neither list, in both, or whose mark disagrees with its list is a problem.
//
// Elements, and where their mark sits:
// - operation: the operation object under a path item (paths, webhooks, callbacks, components/pathItems)
// - parameter: the parameter object (operation- or path-level when inline, or components/parameters)
// - request body: the requestBody object (inline, or components/requestBodies)
// - response: the response object under `responses` (inline, or components/responses)
// - header: the header object under a response's `headers` (inline, or components/headers)
// - schema: a components/schemas entry
// - property: a property schema under `properties`, at any depth (nested objects, items, and
//   allOf/oneOf/anyOf branches), in component schemas and in inline media-type, parameter and header schemas
// - security scheme: a components/securitySchemes entry
// A `$ref` entry in a list or map is not an element itself (its target is); a `$ref` property is.

/** Confirmed elements and the verbatim source text that states them. */
export interface ConfirmedGroup {
  /** Sentences or table rows quoted verbatim from the source document. */
  source: readonly string[];
  pointers: readonly string[];
}

export interface ProvenanceLists {
  assumed: readonly string[];
  confirmed: readonly ConfirmedGroup[];
}

type Kind =
  | "operation"
  | "parameter"
  | "request body"
  | "response"
  | "header"
  | "schema"
  | "property"
  | "security scheme";

type Node = Record<string, unknown>;

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
const SCHEMA_LISTS = ["allOf", "oneOf", "anyOf", "prefixItems"] as const;
const SCHEMA_SINGLES = [
  "items",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
] as const;
const SCHEMA_MAPS = ["patternProperties", "dependentSchemas", "$defs"] as const;

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isRef(value: unknown): boolean {
  return isNode(value) && typeof value.$ref === "string";
}

function escapeToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

function join(pointer: string, ...tokens: (string | number)[]): string {
  return pointer + tokens.map((token) => `/${escapeToken(String(token))}`).join("");
}

/** Resolves an RFC 6901 pointer; `undefined` when it leads nowhere. */
function resolve(document: unknown, pointer: string): unknown {
  if (pointer === "") return document;
  if (!pointer.startsWith("/")) return undefined;
  let current: unknown = document;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      current = current[Number(token)];
    } else if (isNode(current) && Object.hasOwn(current, token)) {
      current = current[token];
    } else {
      return undefined;
    }
  }
  return current;
}

function entries(value: unknown): [string, unknown][] {
  return isNode(value) ? Object.entries(value) : [];
}

/** Enumerates the elements of an OpenAPI 3.1 document: pointer → kind. */
function enumerateElements(document: unknown): Map<string, Kind> {
  const elements = new Map<string, Kind>();
  const add = (pointer: string, kind: Kind) => elements.set(pointer, kind);

  const walkSchemaChildren = (pointer: string, schema: unknown): void => {
    if (!isNode(schema)) return;
    for (const [name, property] of entries(schema.properties)) {
      const at = join(pointer, "properties", name);
      add(at, "property");
      walkSchemaChildren(at, property);
    }
    for (const key of SCHEMA_LISTS) {
      const list = schema[key];
      if (!Array.isArray(list)) continue;
      for (const [i, branch] of list.entries()) walkSchemaChildren(join(pointer, key, i), branch);
    }
    for (const key of SCHEMA_SINGLES) walkSchemaChildren(join(pointer, key), schema[key]);
    for (const key of SCHEMA_MAPS) {
      for (const [name, sub] of entries(schema[key])) walkSchemaChildren(join(pointer, key, name), sub);
    }
  };

  const walkContent = (pointer: string, content: unknown): void => {
    for (const [mediaType, media] of entries(content)) {
      if (isNode(media)) walkSchemaChildren(join(pointer, mediaType, "schema"), media.schema);
    }
  };

  const walkHeader = (pointer: string, header: unknown): void => {
    if (!isNode(header) || isRef(header)) return;
    add(pointer, "header");
    walkSchemaChildren(join(pointer, "schema"), header.schema);
    walkContent(join(pointer, "content"), header.content);
  };

  const walkParameter = (pointer: string, parameter: unknown): void => {
    if (!isNode(parameter) || isRef(parameter)) return;
    add(pointer, "parameter");
    walkSchemaChildren(join(pointer, "schema"), parameter.schema);
    walkContent(join(pointer, "content"), parameter.content);
  };

  const walkParameters = (pointer: string, parameters: unknown): void => {
    if (!Array.isArray(parameters)) return;
    for (const [i, parameter] of parameters.entries()) walkParameter(join(pointer, i), parameter);
  };

  const walkRequestBody = (pointer: string, body: unknown): void => {
    if (!isNode(body) || isRef(body)) return;
    add(pointer, "request body");
    walkContent(join(pointer, "content"), body.content);
  };

  const walkResponse = (pointer: string, response: unknown): void => {
    if (!isNode(response) || isRef(response)) return;
    add(pointer, "response");
    for (const [name, header] of entries(response.headers))
      walkHeader(join(pointer, "headers", name), header);
    walkContent(join(pointer, "content"), response.content);
  };

  const walkPathItem = (pointer: string, item: unknown): void => {
    if (!isNode(item) || isRef(item)) return;
    walkParameters(join(pointer, "parameters"), item.parameters);
    for (const method of METHODS) {
      const operation = item[method];
      if (!isNode(operation)) continue;
      const at = join(pointer, method);
      add(at, "operation");
      walkParameters(join(at, "parameters"), operation.parameters);
      walkRequestBody(join(at, "requestBody"), operation.requestBody);
      for (const [status, response] of entries(operation.responses)) {
        walkResponse(join(at, "responses", status), response);
      }
      for (const [name, callback] of entries(operation.callbacks)) {
        if (isRef(callback)) continue;
        for (const [expression, callbackItem] of entries(callback)) {
          walkPathItem(join(at, "callbacks", name, expression), callbackItem);
        }
      }
    }
  };

  if (!isNode(document)) return elements;
  for (const [path, item] of entries(document.paths)) walkPathItem(join("", "paths", path), item);
  for (const [name, item] of entries(document.webhooks)) walkPathItem(join("", "webhooks", name), item);

  const components = isNode(document.components) ? document.components : {};
  const base = "/components";
  for (const [name, item] of entries(components.pathItems)) walkPathItem(join(base, "pathItems", name), item);
  for (const [name, p] of entries(components.parameters)) walkParameter(join(base, "parameters", name), p);
  for (const [name, b] of entries(components.requestBodies))
    walkRequestBody(join(base, "requestBodies", name), b);
  for (const [name, r] of entries(components.responses)) walkResponse(join(base, "responses", name), r);
  for (const [name, h] of entries(components.headers)) walkHeader(join(base, "headers", name), h);
  for (const [name, schema] of entries(components.schemas)) {
    const at = join(base, "schemas", name);
    add(at, "schema");
    walkSchemaChildren(at, schema);
  }
  for (const [name, scheme] of entries(components.securitySchemes)) {
    if (!isRef(scheme)) add(join(base, "securitySchemes", name), "security scheme");
  }
  return elements;
}

/** Every place in the document where an `x-assumed` key stands: pointer of the object holding it. */
function findMarks(value: unknown, pointer = "", found: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) findMarks(item, join(pointer, i), found);
  } else if (isNode(value)) {
    if (Object.hasOwn(value, "x-assumed")) found.push(pointer);
    for (const [key, child] of Object.entries(value)) findMarks(child, join(pointer, key), found);
  }
  return found;
}

function describeMark(node: unknown): { marked: boolean; value: unknown; description: unknown } {
  if (!isNode(node)) return { marked: false, value: undefined, description: undefined };
  return {
    marked: Object.hasOwn(node, "x-assumed"),
    value: node["x-assumed"],
    description: node.description,
  };
}

function hasText(value: unknown): boolean {
  return typeof value === "string" && value.trim() !== "";
}

/** Every disagreement between a document and its two lists, as readable lines; empty when none. */
export function provenanceProblems(document: unknown, lists: ProvenanceLists): string[] {
  const elements = enumerateElements(document);
  const assumed = new Set(lists.assumed);
  const confirmed = lists.confirmed.flatMap((group) => group.pointers);
  const confirmedSet = new Set(confirmed);
  const problems: string[] = [];

  const all = [...lists.assumed, ...confirmed];
  for (const [i, pointer] of all.entries()) {
    if (all.indexOf(pointer) !== i) problems.push(`${pointer}: listed more than once`);
  }
  for (const pointer of new Set(all)) {
    if (resolve(document, pointer) === undefined)
      problems.push(`${pointer}: listed, but not in the document`);
    else if (!elements.has(pointer)) problems.push(`${pointer}: listed, but not an element`);
  }
  for (const [pointer, kind] of elements) {
    const { marked, value, description } = describeMark(resolve(document, pointer));
    if (assumed.has(pointer)) {
      if (value !== true) {
        problems.push(`${pointer}: listed as assumed, but x-assumed is ${JSON.stringify(value)}`);
      }
      if (!hasText(description) || !String(description).startsWith("Assumed:")) {
        problems.push(`${pointer}: listed as assumed, but its description does not start with "Assumed:"`);
      }
    } else if (confirmedSet.has(pointer)) {
      if (marked) problems.push(`${pointer}: listed as confirmed, but carries x-assumed`);
    } else {
      problems.push(`${pointer}: ${kind} is in neither list (assumed or confirmed)`);
    }
  }
  for (const pointer of findMarks(document)) {
    if (!elements.has(pointer)) problems.push(`${pointer}: x-assumed on something that is not an element`);
  }
  return problems;
}
