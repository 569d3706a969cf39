// Example-driven tools (Prism's proxy, Schemathesis, Postman collections, "try it" panels) build
// requests from the contract's examples. Each example uses values of the default seed, so every
// operation called with its examples and the seed's credentials gets a 2xx from the mock.
import { describe, expect, it } from "vitest";
import { REBUILDS_PATH, rebuildHeaders } from "../http/support/client.js";
import { useMswMock } from "../http/support/harness.js";
import { contract, deref, isObject, type JsonObject } from "../support/contract-validator.js";
import { TOKEN } from "../support/default-seed.js";

const { call } = useMswMock();
const METHODS = ["get", "put", "post", "delete", "patch"] as const;

interface ExampleRequest {
  name: string;
  method: string;
  path: string;
  body: unknown;
}

/** The example value of a parameter or media type: `example`, else the first of `examples`. */
function exampleOf(doc: JsonObject, node: JsonObject): unknown {
  if ("example" in node) return node.example;
  const first = isObject(node.examples) ? Object.values(node.examples)[0] : undefined;
  const resolved = deref(doc, first, "").node;
  return isObject(resolved) ? resolved.value : undefined;
}

/** One request per request-body example (one request when there is no body) of every operation. */
function exampleRequests(api: "dashboard" | "rebuild"): ExampleRequest[] {
  const { doc } = contract(api);
  const requests: ExampleRequest[] = [];
  for (const [template, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    for (const method of METHODS) {
      const operation = isObject(item) ? item[method] : undefined;
      if (!isObject(operation)) continue;
      let path = template;
      const query = new URLSearchParams();
      for (const raw of Array.isArray(operation.parameters) ? operation.parameters : []) {
        const parameter = deref(doc, raw, "").node;
        if (!isObject(parameter)) continue;
        const value = exampleOf(doc, parameter);
        if (value === undefined) throw new Error(`${method} ${template}: parameter without an example`);
        if (parameter.in === "path") path = path.replace(`{${String(parameter.name)}}`, String(value));
        if (parameter.in === "query") query.set(String(parameter.name), String(value));
      }
      const base = api === "dashboard" ? "/v1" : "";
      const target = `${base}${path}${query.size > 0 ? `?${query}` : ""}`;
      const requestBody = deref(doc, operation.requestBody, "").node;
      const media =
        isObject(requestBody) && isObject(requestBody.content)
          ? requestBody.content["application/json"]
          : undefined;
      const examples = isObject(media) && isObject(media.examples) ? Object.entries(media.examples) : [];
      if (examples.length === 0) {
        requests.push({ name: `${method.toUpperCase()} ${target}`, method, path: target, body: undefined });
      }
      for (const [name, example] of examples) {
        const value = isObject(example) ? example.value : undefined;
        requests.push({
          name: `${method.toUpperCase()} ${target} (${name})`,
          method,
          path: target,
          body: value,
        });
      }
    }
  }
  return requests;
}

describe.each(["dashboard", "rebuild"] as const)(
  "the %s contract's examples against the default seed",
  (api) => {
    const requests = exampleRequests(api);

    it("has a request for every operation", () => {
      expect(requests.length).toBeGreaterThan(0);
    });

    it.each(requests)("$name gets a 2xx", async ({ method, path, body }) => {
      const headers =
        api === "dashboard" ? { authorization: `Bearer ${TOKEN.unrestricted}` } : rebuildHeaders();
      const answer = await call({
        method: method.toUpperCase(),
        path: api === "rebuild" ? REBUILDS_PATH : path,
        headers,
        ...(body === undefined ? {} : { json: body }),
      });
      expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(200);
      expect(answer.status).toBeLessThan(300);
    });
  },
);
