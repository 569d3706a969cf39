// What one exchange says about the contract's elements (decisions/038): each element it confirms or
// contradicts, by JSON pointer, with a few words of evidence. Pure: the recorder aggregates.
import { contractDocuments } from "../../src/generated/assumptions.js";
import * as dashboardValidators from "../../src/generated/dashboard-validators.js";
import * as rebuildValidators from "../../src/generated/rebuild-validators.js";
import type { OperationValidators } from "../../src/generated/validator-types.js";
import { DomainError, type FieldError } from "../domain/errors.js";
import { schemaProblems } from "../domain/validation/check.js";
import { readParameters } from "../domain/validation/parameters.js";
import type { Exchange } from "./report.js";
import { followRefs, isNode, join, type Node, walk } from "./schema-walk.js";

export interface Finding {
  pointer: string;
  /** `request`: the request itself broke the contract at `pointer` (the sender's fault, never evidence about the service). */
  outcome: "confirmed" | "contradicted" | "request";
  evidence: string;
}

/** The compiled request validators the mock uses (decisions/023), by document, path template and method. */
const VALIDATORS = {
  dashboard: dashboardValidators,
  rebuild: rebuildValidators,
} as const;

function validatorsOf(exchange: Exchange, operation: Operation): OperationValidators | undefined {
  const { routes, operations } = VALIDATORS[exchange.document];
  const byMethod = (routes as Readonly<Record<string, Readonly<Record<string, string>>>>)[operation.template];
  const id = byMethod?.[operation.method];
  return id === undefined ? undefined : (operations as Readonly<Record<string, OperationValidators>>)[id];
}

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

interface Operation {
  node: Node;
  at: string;
  method: string;
  template: string;
}

/** The path item whose template matches `path`, with its pointer; `undefined` when none does. */
function pathItemOf(root: Node, path: string): { item: Node; template: string } | undefined {
  const paths = isNode(root.paths) ? root.paths : {};
  // A path written out wins over a template that also fits it (OpenAPI's rule).
  const exact = paths[path];
  if (isNode(exact)) return { item: exact, template: path };
  const segments = path.split("/");
  for (const [template, item] of Object.entries(paths)) {
    const parts = template.split("/");
    if (parts.length !== segments.length || !isNode(item)) continue;
    const fits = parts.every(
      (part, index) =>
        part === segments[index] || (/^\{[^}]+\}$/.test(part) && (segments[index] ?? "") !== ""),
    );
    if (fits) return { item, template };
  }
  return undefined;
}

function operationsOf(item: Node, template: string): Operation[] {
  return METHODS.filter((method) => isNode(item[method])).map((method) => ({
    node: item[method] as Node,
    at: join("", "paths", template, method),
    method,
    template,
  }));
}

/** The response a status selects: the exact code, then its class (`4XX`), then `default`. */
function responseKey(responses: Node, status: number): string | undefined {
  const exact = String(status);
  if (Object.hasOwn(responses, exact)) return exact;
  const range = `${exact[0]}XX`;
  if (Object.hasOwn(responses, range)) return range;
  return Object.hasOwn(responses, "default") ? "default" : undefined;
}

const isSuccess = (status: number) => status >= 200 && status < 300;

/** Every finding of one exchange. */
export function judge(exchange: Exchange): Finding[] {
  const root = contractDocuments[exchange.document] as Node;
  const findings: Finding[] = [];
  const method = exchange.method.toLowerCase();
  const name = `${exchange.method.toUpperCase()} ${exchange.path}`;
  const found = pathItemOf(root, exchange.path);
  if (!found) return findings;
  const operations = operationsOf(found.item, found.template);
  const operation = operations.find((candidate) => candidate.method === method);
  if (!operation) {
    // A method the path does not have: each operation's `default` response documents the refusal.
    if (exchange.expected !== undefined && exchange.expected !== exchange.status) {
      const evidence = `${name} answered ${exchange.status} where ${exchange.expected} is documented`;
      for (const other of operations) {
        findings.push({
          pointer: responsePointer(root, other, "default"),
          outcome: "contradicted",
          evidence,
        });
      }
      return findings;
    }
    for (const other of operations) judgeResponse(root, exchange, other, "default", findings);
    return findings;
  }
  const responses = isNode(operation.node.responses) ? operation.node.responses : {};
  const key = responseKey(responses, exchange.status);
  const explicit = key === String(exchange.status);
  // An answer saying the operation is not there (404, 405, 501) where the operation does not
  // document that status: the service lacks the operation, and nothing else about it can be judged.
  if ([404, 405, 501].includes(exchange.status) && !explicit) {
    findings.push({
      pointer: operation.at,
      outcome: "contradicted",
      evidence: `${name} answered ${exchange.status}: the service has no such operation`,
    });
    return findings;
  }
  if (explicit)
    findings.push({
      pointer: operation.at,
      outcome: "confirmed",
      evidence: `${name} answered ${exchange.status}`,
    });
  const documented = Object.keys(responses).filter((code) => code !== "default");
  if (exchange.expected !== undefined && exchange.expected !== exchange.status) {
    const expectedKey = responseKey(responses, exchange.expected);
    if (expectedKey) {
      findings.push({
        pointer: responsePointer(root, operation, expectedKey),
        outcome: "contradicted",
        evidence: `${name} answered ${exchange.status} where ${exchange.expected} is documented`,
      });
    }
  } else if (exchange.expected === undefined && isSuccess(exchange.status) && !explicit && key !== `2XX`) {
    for (const code of documented.filter((code) => code.startsWith("2"))) {
      findings.push({
        pointer: responsePointer(root, operation, code),
        outcome: "contradicted",
        evidence: `${name} answered ${exchange.status} where ${code} is documented`,
      });
    }
  }
  // A success answer the operation does not document says nothing about its error responses.
  if (key !== undefined && !(isSuccess(exchange.status) && key === "default")) {
    judgeResponse(root, exchange, operation, key, findings);
  }
  judgeRequest(root, exchange, operation, findings);
  // A request sent without an expectation (a proxy's traffic) that the contract refuses: the sender's mistake.
  if (exchange.expected === undefined) findings.push(...requestProblems(exchange, operation));
  return findings;
}

/** What the compiled validators refuse in the request's query and JSON body, as `request` findings. */
function requestProblems(exchange: Exchange, operation: Operation): Finding[] {
  const validators = validatorsOf(exchange, operation);
  if (!validators) return [];
  const problems: FieldError[] = [];
  if (validators.query) {
    const query = new URLSearchParams(exchange.query);
    try {
      readParameters(validators.query, (name) => query.getAll(name));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      for (const problem of error.details.fieldErrors ?? [])
        problems.push({ ...problem, path: `query ${problem.path}` });
    }
  }
  if (validators.body && exchange.requestBody !== undefined) {
    // The validators fill in defaults: they get a copy.
    problems.push(...schemaProblems(validators.body.validate, structuredClone(exchange.requestBody), "body"));
  }
  const name = `${exchange.method.toUpperCase()} ${exchange.path}`;
  return problems.map((problem) => ({
    pointer: operation.at,
    outcome: "request",
    evidence: `${name} sent ${problem.path === "" ? "a body" : problem.path} the contract refuses (${problem.type})`,
  }));
}

/** The element a response is: the response object, or the components/responses entry it refers to. */
function responsePointer(root: Node, operation: Operation, key: string): string {
  const at = join(operation.at, "responses", key);
  return followRefs(root, (operation.node.responses as Node)[key], at).at;
}

function lowerKeys(headers: Record<string, string>): Map<string, string> {
  return new Map(Object.entries(headers).map(([header, value]) => [header.toLowerCase(), value]));
}

function judgeResponse(
  root: Node,
  exchange: Exchange,
  operation: Operation,
  key: string,
  findings: Finding[],
): void {
  const responses = operation.node.responses as Node;
  const { node, at } = followRefs(root, responses[key], join(operation.at, "responses", key));
  if (!isNode(node)) return;
  const where = `${exchange.method.toUpperCase()} ${exchange.path} → ${exchange.status}`;
  const failed: string[][] = [];
  const headers = lowerKeys(exchange.responseHeaders);
  for (const [header, declared] of Object.entries(isNode(node.headers) ? node.headers : {})) {
    const resolved = followRefs(root, declared, join(at, "headers", header));
    if (!isNode(resolved.node)) continue;
    const value = headers.get(header.toLowerCase());
    if (value === undefined) {
      if (resolved.node.required === true) {
        failed.push([at, resolved.at]);
        findings.push({
          pointer: resolved.at,
          outcome: "contradicted",
          evidence: `${where}: ${header} absent`,
        });
      }
      continue;
    }
    const schema = followRefs(root, resolved.node.schema, join(resolved.at, "schema")).node;
    const integer = isNode(schema) && schema.type === "integer";
    if (integer && !/^-?\d+$/.test(value.trim())) {
      failed.push([at, resolved.at]);
      findings.push({
        pointer: resolved.at,
        outcome: "contradicted",
        evidence: `${where}: ${header} is not an integer`,
      });
    } else {
      findings.push({ pointer: resolved.at, outcome: "confirmed", evidence: `${where}: ${header} present` });
    }
  }
  const content = isNode(node.content) ? node.content : undefined;
  const media = content ? Object.keys(content)[0] : undefined;
  const schema = media && content && isNode(content[media]) ? (content[media] as Node).schema : undefined;
  const visited = new Set<string>();
  if (schema !== undefined) {
    if (exchange.responseBody === undefined) {
      failed.push([at]);
      findings.push({ pointer: at, outcome: "contradicted", evidence: `${where}: no JSON body` });
    } else {
      const walked = walk(
        root,
        schema,
        join(at, "content", media ?? "", "schema"),
        exchange.responseBody,
        [at],
        "body",
      );
      for (const failure of walked.failures) {
        failed.push([...failure.chain]);
        findings.push({
          pointer: failure.pointer,
          outcome: "contradicted",
          evidence: `${where}: ${failure.evidence}`,
        });
      }
      for (const pointer of walked.visited) visited.add(pointer);
    }
  }
  const spoiled = new Set(failed.flat());
  if (!spoiled.has(at))
    findings.push({ pointer: at, outcome: "confirmed", evidence: `${where}, as documented` });
  for (const pointer of visited) {
    if (!spoiled.has(pointer))
      findings.push({ pointer, outcome: "confirmed", evidence: `${where}: present as documented` });
  }
}

/**
 * The request side: the request body, its fields and the parameters the request used are confirmed
 * when the service accepted the request (a success answer). A request sent expecting success and
 * refused with a field error contradicts the innermost element the error's path names.
 */
function judgeRequest(root: Node, exchange: Exchange, operation: Operation, findings: Finding[]): void {
  const name = `${exchange.method.toUpperCase()} ${exchange.path}`;
  const used: string[] = [];
  const query = new URLSearchParams(exchange.query);
  for (const [index, declared] of (Array.isArray(operation.node.parameters)
    ? operation.node.parameters
    : []
  ).entries()) {
    const { node, at } = followRefs(root, declared, join(operation.at, "parameters", index));
    if (!isNode(node)) continue;
    if (node.in === "path" || (node.in === "query" && typeof node.name === "string" && query.has(node.name)))
      used.push(at);
  }
  let body: { at: string; schema: unknown; schemaAt: string } | undefined;
  if (operation.node.requestBody !== undefined && exchange.requestBody !== undefined) {
    const { node, at } = followRefs(root, operation.node.requestBody, join(operation.at, "requestBody"));
    const content = isNode(node) && isNode(node.content) ? node.content : {};
    const json = content["application/json"];
    if (isNode(json))
      body = { at, schema: json.schema, schemaAt: join(at, "content", "application/json", "schema") };
  }
  if (isSuccess(exchange.status)) {
    const evidence = `${name} accepted (${exchange.status})`;
    for (const pointer of used) findings.push({ pointer, outcome: "confirmed", evidence });
    if (body) {
      findings.push({ pointer: body.at, outcome: "confirmed", evidence });
      const walked = walk(root, body.schema, body.schemaAt, exchange.requestBody, [body.at], "body");
      if (walked.failures.length === 0) {
        for (const pointer of walked.visited) findings.push({ pointer, outcome: "confirmed", evidence });
      }
    }
    return;
  }
  if (exchange.expected === undefined || !isSuccess(exchange.expected) || exchange.status !== 400 || !body)
    return;
  const paths = fieldErrorPaths(exchange.responseBody);
  const targets = new Set(paths.map((path) => elementAt(root, body.schema, body.schemaAt, path) ?? body.at));
  if (targets.size === 0) targets.add(body.at);
  for (const pointer of targets) {
    findings.push({
      pointer,
      outcome: "contradicted",
      evidence: `${name}: a body the contract accepts was refused (400)`,
    });
  }
}

/** The `path` of each `{ type, path, message }` in a refusal's `errors`. */
function fieldErrorPaths(body: unknown): string[] {
  if (!isNode(body) || !Array.isArray(body.errors)) return [];
  return body.errors.flatMap((error: unknown) =>
    isNode(error) && typeof error.path === "string" ? [error.path] : [],
  );
}

/** The innermost element (component schema or property) a field path leads to in a request schema. */
function elementAt(root: Node, schema: unknown, schemaAt: string, path: string): string | undefined {
  let element: string | undefined;
  let current = followRefs(root, schema, schemaAt);
  if (/^\/components\/schemas\/[^/]+$/.test(current.at)) element = current.at;
  // Field error paths are dotted (`servers.0.address`); JSON pointers are accepted too.
  for (const token of path.split(/[./]/).filter((t) => t !== "")) {
    const node = current.node;
    if (!isNode(node)) break;
    if (/^\d+$/.test(token) && node.items !== undefined) {
      current = followRefs(root, node.items, join(current.at, "items"));
    } else if (isNode(node.properties) && Object.hasOwn(node.properties, token)) {
      element = join(current.at, "properties", token);
      current = followRefs(root, node.properties[token], element);
    } else break;
    if (/^\/components\/schemas\/[^/]+$/.test(current.at)) element = current.at;
  }
  return element;
}
