// Checks a request against the contract in openapi/*.yaml, the other half of contract-validator.ts
// (whose document loading, `$ref` handling and Ajv instance it shares): the operation from method and
// path, then its security requirement, parameters (path, query, header) and request body.
import {
  type ContractApi,
  contract,
  deref,
  findPathTemplate,
  isObject,
  type JsonObject,
  pointerOf,
  schemaErrors,
} from "./contract-validator.js";

/** A request as the mock receives it. */
export interface RequestUnderCheck {
  method: string;
  /** Path below the API's base URL (for the dashboard, without `/v1`). */
  path: string;
  query: URLSearchParams;
  headers: { get(name: string): string | null };
  body: Uint8Array | null;
}

/** contract-decisions: "bodies over 1 MiB" get 413, so no such body is a valid request. */
const MAX_BODY_BYTES = 1024 * 1024;

// RFC 6750 b64token: what may follow "Bearer " in one well-formed Authorization header.
const BEARER = /^Bearer [A-Za-z0-9\-._~+/]+=*$/;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The contract operation a request addresses: its path template and JSON pointer, if any. */
export function findOperation(
  api: ContractApi,
  method: string,
  path: string,
): { template: string; pointer: string; operation: JsonObject } | undefined {
  const { doc } = contract(api);
  const template = findPathTemplate(doc, path);
  const item = template === undefined ? undefined : (doc.paths as JsonObject)[template];
  // HEAD is a GET without the body (RFC 9110 §9.3.2): the mock serves it wherever the contract has GET.
  const key =
    method.toLowerCase() === "head" && isObject(item) && !isObject(item.head) ? "get" : method.toLowerCase();
  const operation = isObject(item) ? item[key] : undefined;
  if (template === undefined || !isObject(operation)) return undefined;
  return { template, pointer: pointerOf("paths", template, key), operation };
}

/** Every way `request` departs from the contract, as readable lines; empty when it conforms. */
export function requestViolations(api: ContractApi, request: RequestUnderCheck): string[] {
  const found = findOperation(api, request.method, request.path);
  if (!found) return [`${request.method} ${request.path} is not an operation of the contract`];
  return [
    ...securityViolations(api, found.operation, request),
    ...parameterViolations(api, found, request),
    ...bodyViolations(api, found, request),
  ];
}

function securityViolations(api: ContractApi, operation: JsonObject, request: RequestUnderCheck): string[] {
  const { doc } = contract(api);
  const requirements = Array.isArray(operation.security) ? operation.security : doc.security;
  if (!Array.isArray(requirements) || requirements.length === 0) return [];
  const schemes =
    isObject(doc.components) && isObject(doc.components.securitySchemes)
      ? doc.components.securitySchemes
      : {};
  // Alternatives are OR'ed; the schemes within one alternative are AND'ed.
  const failures = requirements.map((requirement) =>
    Object.keys(isObject(requirement) ? requirement : {}).flatMap((name) => {
      const scheme = schemes[name];
      if (!isObject(scheme)) return [`security scheme ${name} is not defined`];
      if (scheme.type === "http" && String(scheme.scheme).toLowerCase() === "bearer") {
        return BEARER.test(request.headers.get("authorization") ?? "")
          ? []
          : ["Authorization is not one well-formed Bearer credential"];
      }
      if (scheme.type === "apiKey" && scheme.in === "header") {
        const value = request.headers.get(String(scheme.name));
        return value ? [] : [`header ${String(scheme.name)} (${name}) is missing`];
      }
      return [`security scheme ${name} cannot be checked here`];
    }),
  );
  return failures.some((problems) => problems.length === 0) ? [] : (failures[0] ?? []);
}

function parameterViolations(
  api: ContractApi,
  found: { template: string; pointer: string; operation: JsonObject },
  request: RequestUnderCheck,
): string[] {
  const { doc } = contract(api);
  const item = (doc.paths as JsonObject)[found.template] as JsonObject;
  const declared = [
    ...listAt(item.parameters, pointerOf("paths", found.template, "parameters")),
    ...listAt(found.operation.parameters, `${found.pointer}/parameters`),
  ].map(({ node, pointer }) => deref(doc, node, pointer));
  const segments = found.template.split("/");
  const parts = request.path.split("/");
  const problems: string[] = [];
  for (const { node: parameter, pointer } of declared) {
    if (!isObject(parameter)) continue;
    const name = String(parameter.name);
    let values: string[];
    if (parameter.in === "path") {
      const raw = parts[segments.indexOf(`{${name}}`)] ?? "";
      try {
        values = [decodeURIComponent(raw)];
      } catch {
        problems.push(`path parameter ${name} is not valid percent-encoding`);
        continue;
      }
    } else if (parameter.in === "query") {
      values = request.query.getAll(name);
    } else if (parameter.in === "header") {
      const value = request.headers.get(name);
      values = value === null ? [] : [value];
    } else continue;
    if (values.length === 0) {
      if (parameter.required === true) problems.push(`${parameter.in} parameter ${name} is required`);
      continue;
    }
    // A scalar parameter carries one value; contract-decisions: a repeated one gets 400.
    if (values.length > 1) {
      problems.push(`${parameter.in} parameter ${name} is repeated`);
      continue;
    }
    const schema = isObject(parameter.schema) ? parameter.schema : {};
    for (const error of schemaErrors(api, `${pointer}/schema`, coerce(values[0] ?? "", schema))) {
      problems.push(`${parameter.in} parameter ${name} (${JSON.stringify(values[0])}): ${error}`);
    }
  }
  return problems;
}

function listAt(value: unknown, pointer: string): { node: unknown; pointer: string }[] {
  return Array.isArray(value) ? value.map((node, index) => ({ node, pointer: `${pointer}/${index}` })) : [];
}

/** Parameter text as the typed value its schema describes (left as text when it spells none). */
function coerce(text: string, schema: JsonObject): unknown {
  if (schema.type === "integer" && /^\d+$/.test(text)) return Number(text);
  if (schema.type === "number" && /^\d+(\.\d+)?$/.test(text)) return Number(text);
  if (schema.type === "boolean" && (text === "true" || text === "false")) return text === "true";
  return text;
}

function bodyViolations(
  api: ContractApi,
  found: { pointer: string; operation: JsonObject },
  request: RequestUnderCheck,
): string[] {
  const { doc } = contract(api);
  const { node: requestBody, pointer } = deref(
    doc,
    found.operation.requestBody,
    `${found.pointer}/requestBody`,
  );
  // contract-decisions: a body on an operation that takes none (GET, DELETE) is ignored.
  if (!isObject(requestBody)) return [];
  const body = request.body && request.body.length > 0 ? request.body : null;
  if (body === null) return requestBody.required === true ? ["the request body is required"] : [];
  if (body.length > MAX_BODY_BYTES) return [`the body has ${body.length} bytes, more than 1 MiB`];
  const content = isObject(requestBody.content) ? requestBody.content : {};
  const mediaType = mediaTypeOf(request.headers.get("content-type"), Object.keys(content));
  if (mediaType === undefined) {
    return [`Content-Type ${JSON.stringify(request.headers.get("content-type"))} is not documented`];
  }
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(body));
  } catch {
    return ["the body is not UTF-8 JSON"];
  }
  return schemaErrors(api, `${pointer}${pointerOf("content", mediaType, "schema")}`, value).map(
    (error) => `body ${error}`,
  );
}

/**
 * The documented media type a Content-Type header selects. Parameters (`charset`) are ignored and a
 * `+json` structured-syntax suffix (RFC 6839) is JSON, so it selects `application/json`.
 */
function mediaTypeOf(header: string | null, documented: string[]): string | undefined {
  const essence = (header ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (documented.includes(essence)) return essence;
  if (
    /^[a-z0-9!#$&^_.-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(essence) &&
    documented.includes("application/json")
  ) {
    return "application/json";
  }
  return undefined;
}
