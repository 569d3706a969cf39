// What the contract documents, read from the documents themselves: every operation's responses and
// the callback's shapes. The conformance observer records against these keys; the coverage report
// compares what was recorded with the full list.
import { type ContractApi, contract, isObject, type JsonObject } from "./contract-validator.js";

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const WEBHOOK = "partner_project_rebuild_completed";

/** `dashboard GET /si/servers 200`: one documented response of one operation. */
export function responseKey(api: ContractApi, method: string, template: string, status: string): string {
  return `${api} ${method.toUpperCase()} ${template} ${status}`;
}

/** `rebuild webhook failed(error_code,error_message,...)`: one documented callback shape. */
export function callbackShapeKey(body: JsonObject): string {
  return `rebuild webhook ${String(body.status)}(${Object.keys(body).sort().join(",")})`;
}

/** The documented response (its key in `responses`) that answers `status`, as OpenAPI picks it. */
export function documentedStatus(responses: JsonObject, status: number): string | undefined {
  return [String(status), `${String(status)[0]}XX`, "default"].find((key) => key in responses);
}

/** Every documented response of every operation of both contracts, `default` included. */
export function documentedResponses(): string[] {
  const keys: string[] = [];
  for (const api of ["dashboard", "rebuild"] as const) {
    const paths = contract(api).doc.paths;
    for (const [template, item] of Object.entries(isObject(paths) ? paths : {})) {
      for (const method of HTTP_METHODS) {
        const operation = isObject(item) ? item[method] : undefined;
        if (!isObject(operation) || !isObject(operation.responses)) continue;
        for (const status of Object.keys(operation.responses))
          keys.push(responseKey(api, method, template, status));
      }
    }
  }
  return keys;
}

/** The callback's documented examples (success, failed, ...), each with the key of its shape. */
function callbackExampleShapes(): Map<string, string> {
  const webhooks = contract("rebuild").doc.webhooks;
  const post = isObject(webhooks) && isObject(webhooks[WEBHOOK]) ? webhooks[WEBHOOK].post : undefined;
  const body = isObject(post) && isObject(post.requestBody) ? post.requestBody : {};
  const json =
    isObject(body.content) && isObject(body.content["application/json"])
      ? body.content["application/json"]
      : {};
  const shapes = new Map<string, string>();
  for (const [name, example] of Object.entries(isObject(json.examples) ? json.examples : {})) {
    if (isObject(example) && isObject(example.value)) shapes.set(name, callbackShapeKey(example.value));
  }
  return shapes;
}

/** One key per distinct documented callback shape. */
export function documentedCallbackShapes(): string[] {
  return [...new Set(callbackExampleShapes().values())];
}

/**
 * The standalone server's own answers in front of both APIs (decisions/017): not in the contract,
 * but checked like it (the error envelope, the CORS headers) and required by the coverage report.
 */
export const EDGE_RESPONSES = {
  preflight: "edge OPTIONS preflight 204",
  host: "edge host refused 403",
  origin: "edge origin refused 403",
  "request-target": "edge request-target 400",
} as const;
