// Checks observed HTTP responses against the contract in openapi/*.yaml: the operation is found from
// the method and path, the response from the status (exact, then `4XX`-style, then `default`), and
// the body and the documented headers are validated with Ajv (JSON Schema 2020-12, as OpenAPI 3.1).
// Each document is added to Ajv whole, with an `$id`, so every `$ref` resolves inside it.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type Ajv2020 from "ajv/dist/2020";
import type { ValidateFunction } from "ajv/dist/2020";
import { parse } from "yaml";
import { createContractAjv } from "./contract-ajv.js";
import { compareWithZod } from "./zod-agreement.js";

/** The two service contracts, and the mock's control API (a development tool, decisions/024). */
export type ContractApi = "dashboard" | "rebuild" | "mock-control";

/** What a test saw on the wire. */
export interface ObservedResponse {
  method: string;
  /** Path below the API's base URL (for the dashboard, without `/v1`), as requested. */
  path: string;
  status: number;
  headers: { get(name: string): string | null };
  /** The parsed JSON body, or undefined when the response had none. */
  body: unknown;
}

export type JsonObject = Record<string, unknown>;

export interface LoadedContract {
  doc: JsonObject;
  id: string;
  ajv: Ajv2020;
  validators: Map<string, ValidateFunction>;
}

const FILES: Record<ContractApi, string> = {
  dashboard: "dashboard.yaml",
  rebuild: "rebuild.yaml",
  "mock-control": "mock-control.yaml",
};
/** The error envelope each document's unknown paths and methods answer with. */
const ERROR_SCHEMA: Record<ContractApi, string> = {
  dashboard: "/components/schemas/ErrorResponse",
  rebuild: "/components/schemas/ErrorResponse",
  "mock-control": "/components/schemas/ControlError",
};
const loaded = new Map<ContractApi, LoadedContract>();

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function contract(api: ContractApi): LoadedContract {
  let entry = loaded.get(api);
  if (!entry) {
    const doc = load(FILES[api]);
    const ajv = createContractAjv();
    const id = `https://contract.test/openapi/${FILES[api]}`;
    ajv.addSchema({ ...doc, $id: id });
    // A document may refer to the others' schemas by file name (`./dashboard.yaml#/…`).
    for (const file of Object.values(FILES)) {
      if (file !== FILES[api]) ajv.addSchema({ ...load(file), $id: `https://contract.test/openapi/${file}` });
    }
    entry = { doc, id, ajv, validators: new Map() };
    loaded.set(api, entry);
  }
  return entry;
}

function load(file: string): JsonObject {
  const doc: unknown = parse(
    readFileSync(fileURLToPath(new URL(`../../openapi/${file}`, import.meta.url)), "utf8"),
  );
  if (!isObject(doc)) throw new Error(`openapi/${file} is not a YAML mapping`);
  return doc;
}

const escapeToken = (token: string) => token.replace(/~/g, "~0").replace(/\//g, "~1");
export const pointerOf = (...tokens: string[]) => tokens.map((token) => `/${escapeToken(token)}`).join("");

function resolve(doc: JsonObject, pointer: string): unknown {
  let node: unknown = doc;
  for (const raw of pointer.split("/").slice(1)) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    node = isObject(node) ? node[token] : undefined;
  }
  return node;
}

/** Follows a local `$ref` chain; returns the object and the pointer it lives at. */
export function deref(doc: JsonObject, node: unknown, pointer: string): { node: unknown; pointer: string } {
  let current = { node, pointer };
  for (let hops = 0; isObject(current.node) && typeof current.node.$ref === "string"; hops++) {
    if (hops > 20 || !current.node.$ref.startsWith("#")) break;
    const next = current.node.$ref.slice(1);
    current = { node: resolve(doc, next), pointer: next };
  }
  return current;
}

/** Validates `value` against the schema at `pointer`; Ajv's messages, each with its instance path. */
export function schemaErrors(api: ContractApi, pointer: string, value: unknown): string[] {
  const { ajv, id, validators } = contract(api);
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${id}#${pointer.split("/").map(encodeURIComponent).join("/")}` });
    validators.set(pointer, validate);
  }
  const errors = validate(value) ? [] : ajvMessages(validate.errors ?? []);
  const component = componentOf(api, pointer);
  if (component !== undefined && api !== "mock-control") compareWithZod(api, component, value, errors);
  return errors;
}

/** The component schema (its name) that `pointer` is or refers to, if any. */
function componentOf(api: ContractApi, pointer: string): string | undefined {
  const named = /^\/components\/schemas\/([^/]+)$/.exec(
    deref(contract(api).doc, resolve(contract(api).doc, pointer), pointer).pointer,
  );
  return named?.[1];
}

function ajvMessages(errors: NonNullable<ValidateFunction["errors"]>): string[] {
  return errors.map(
    (error) =>
      `${error.instancePath || "(root)"} ${error.message ?? "is invalid"}${
        error.keyword === "additionalProperties" || error.keyword === "enum" || error.keyword === "const"
          ? ` ${JSON.stringify(error.params)}`
          : ""
      }`,
  );
}

/** The contract path template `path` falls under, or undefined. Literal segments must match exactly. */
export function findPathTemplate(doc: JsonObject, path: string): string | undefined {
  const paths = isObject(doc.paths) ? Object.keys(doc.paths) : [];
  const parts = path.split("?")[0]?.split("/") ?? [];
  return paths.find((template) => {
    const segments = template.split("/");
    return (
      segments.length === parts.length &&
      segments.every((segment, index) => {
        const part = parts[index] ?? "";
        return /^\{[^}]+\}$/.test(segment) ? part !== "" : segment === part;
      })
    );
  });
}

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** What `Allow` lists for a path of the contract: its methods, and HEAD wherever GET is. */
export function allowedMethods(item: JsonObject): string[] {
  const methods = HTTP_METHODS.filter((m) => isObject(item[m])).map((m) => m.toUpperCase());
  if (methods.includes("GET") && !methods.includes("HEAD")) methods.push("HEAD");
  return methods.sort();
}

/**
 * Every way `response` departs from the contract, as readable lines; empty when it conforms.
 * A path outside the contract may only answer 404, a method the path lacks only 405 with `Allow`,
 * both with the error envelope.
 */
export function contractViolations(api: ContractApi, response: ObservedResponse): string[] {
  const { doc } = contract(api);
  const template = findPathTemplate(doc, response.path);
  const item = template === undefined ? undefined : (doc.paths as JsonObject)[template];
  // HEAD answers as GET does, without the body (RFC 9110 §9.3.2), wherever the contract has GET.
  const asked = response.method.toLowerCase();
  const method = asked === "head" && isObject(item) && !isObject(item.head) ? "get" : asked;
  if (!isObject(item)) {
    if (response.status !== 404) return [`the path is not in the contract, so only 404 fits`];
    return schemaErrors(api, ERROR_SCHEMA[api], response.body);
  }
  if (!isObject(item[method])) {
    const problems: string[] = [];
    if (response.status !== 405)
      problems.push(`the contract has no ${method.toUpperCase()} here: 405 expected`);
    const expected = allowedMethods(item);
    const allow = (response.headers.get("allow") ?? "")
      .split(",")
      .map((m) => m.trim())
      .filter(Boolean)
      .sort();
    if (allow.join(",") !== expected.join(",")) {
      problems.push(`Allow is ${JSON.stringify(allow.join(", "))}, expected ${expected.join(", ")}`);
    }
    return [...problems, ...schemaErrors(api, ERROR_SCHEMA[api], response.body)];
  }
  const operationPointer = pointerOf("paths", template ?? "", method);
  const responses = (item[method] as JsonObject).responses;
  if (!isObject(responses)) return [`${operationPointer} documents no responses`];
  const key = [String(response.status), `${String(response.status)[0]}XX`, "default"].find(
    (candidate) => candidate in responses,
  );
  if (key === undefined) return [`status ${response.status} is not documented`];
  const { node: documented, pointer } = deref(
    doc,
    responses[key],
    pointerOf("paths", template ?? "", method, "responses", key),
  );
  if (!isObject(documented)) return [`${pointer} cannot be resolved`];
  return [
    ...bodyViolations(api, documented, pointer, response),
    ...headerViolations(api, documented, pointer, response),
  ];
}

function bodyViolations(
  api: ContractApi,
  documented: JsonObject,
  pointer: string,
  response: ObservedResponse,
): string[] {
  const content = isObject(documented.content) ? documented.content : undefined;
  if (!content) {
    return response.body === undefined
      ? []
      : ["the contract documents no body for this status, one was sent"];
  }
  const contentType = response.headers.get("content-type") ?? "";
  const mediaType = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (mediaType !== "application/json" && isObject(content[mediaType])) {
    // A page or an event stream (the control API's console): its type is documented; a stream has
    // no body to check, a page's text is checked against its schema (a string).
    if (response.body === undefined) return [];
    return schemaErrors(api, `${pointer}${pointerOf("content", mediaType, "schema")}`, response.body);
  }
  if (!/^application\/json\b/i.test(contentType)) {
    return [`Content-Type is ${JSON.stringify(contentType)}, application/json expected`];
  }
  if (!isObject(content["application/json"])) return ["the contract has no application/json body here"];
  return schemaErrors(api, `${pointer}${pointerOf("content", "application/json", "schema")}`, response.body);
}

function headerViolations(
  api: ContractApi,
  documented: JsonObject,
  pointer: string,
  response: ObservedResponse,
): string[] {
  if (!isObject(documented.headers)) return [];
  const { doc } = contract(api);
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(documented.headers)) {
    const header = deref(doc, raw, `${pointer}${pointerOf("headers", name)}`);
    if (!isObject(header.node)) continue;
    const value = response.headers.get(name);
    if (value === null) {
      if (header.node.required === true) problems.push(`header ${name} is required but missing`);
      continue;
    }
    if (!isObject(header.node.schema)) continue;
    // Header values are text; a number-typed schema is checked against the number the text spells.
    const numeric = ["integer", "number"].includes(String(header.node.schema.type));
    const typed = numeric && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
    for (const error of schemaErrors(api, `${header.pointer}/schema`, typed)) {
      problems.push(`header ${name} (${JSON.stringify(value)}): ${error}`);
    }
  }
  return problems;
}

/** Violations of the completion callback body (`webhooks.partner_project_rebuild_completed`). */
export function callbackViolations(body: unknown): string[] {
  return schemaErrors(
    "rebuild",
    pointerOf(
      "webhooks",
      "partner_project_rebuild_completed",
      "post",
      "requestBody",
      "content",
      "application/json",
      "schema",
    ),
    body,
  );
}

/** Throws a readable error unless `response` conforms to the contract. */
export function assertMatchesContract(api: ContractApi, response: ObservedResponse): void {
  const problems = contractViolations(api, response);
  if (problems.length === 0) return;
  const body = JSON.stringify(response.body) ?? "(no body)";
  throw new Error(
    [
      `${response.method} ${response.path} → ${response.status} does not match openapi/${FILES[api]}:`,
      ...problems.map((problem) => `  - ${problem}`),
      `  body: ${body.length > 2000 ? `${body.slice(0, 2000)}…` : body}`,
    ].join("\n"),
  );
}
