// The operation registries (src/generated/<doc>-operations.ts, decisions/049): what the mock reads
// instead of restating the contract, checked against the documents read here by hand, and the
// generator shown to refuse a document that states a code's status twice or not at all, a challenge
// its header's schema refuses, or one value carried by two headers.
import { describe, expect, it } from "vitest";
import * as dashboard from "../../src/generated/dashboard-operations.js";
import * as sdkHeaders from "../../src/generated/headers.js";
import * as control from "../../src/generated/mock-control-operations.js";
import * as rebuild from "../../src/generated/rebuild-operations.js";
import { importGenerator, readDocument } from "../support/generator-input.js";

type Node = Record<string, unknown>;
interface Parsed {
  name: string;
  document: Node;
}
interface OperationsGenerator {
  generateOperations(documents: Parsed[]): Array<{ path: string; content: string }>;
}
const { generateOperations } = await importGenerator<OperationsGenerator>("operations.mjs");

const read = (name: string): Parsed => readDocument<Node>(name);
const all = () => ["dashboard", "rebuild", "mock-control"].map(read);
/** A document's `x-error-statuses`, to change in a copy. */
const table = (documents: Parsed[], index: number) => {
  const found = documents[index]?.document["x-error-statuses"];
  if (!found) throw new Error(`document ${index} has no x-error-statuses`);
  return found as Record<string, number>;
};
/** A document's `components.headers`, to change in a copy. */
const componentHeaders = (documents: Parsed[], index: number) => {
  const found = (documents[index]?.document.components as { headers?: Record<string, Node> } | undefined)
    ?.headers;
  if (!found) throw new Error(`document ${index} has no component headers`);
  return found;
};

describe("src/generated/<doc>-operations.ts", () => {
  it("lists every operation of each document with its method and path template", () => {
    for (const [registry, name] of [
      [dashboard, "dashboard"],
      [rebuild, "rebuild"],
      [control, "mock-control"],
    ] as const) {
      const paths = read(name).document.paths as Record<string, Record<string, { operationId: string }>>;
      const documented = Object.entries(paths).flatMap(([path, item]) =>
        Object.entries(item).map(([method, { operationId }]) => ({ operationId, method, path })),
      );
      const listed = Object.values(registry.operations).map(({ operationId, method, path }) => ({
        operationId,
        method: method.toLowerCase(),
        path,
      }));
      const byId = (a: { operationId: string }, b: { operationId: string }) =>
        a.operationId.localeCompare(b.operationId);
      expect(listed.sort(byId)).toEqual(documented.sort(byId));
    }
  });

  it("gives each error code the status contract-decisions.md gives it, the same in every document", () => {
    const decided = {
      VALIDATION_FAILED: 400,
      UNAUTHORIZED: 401,
      FORBIDDEN: 403,
      FEATURE_NOT_ENABLED: 403,
      NOT_FOUND: 404,
      METHOD_NOT_ALLOWED: 405,
      PAYLOAD_TOO_LARGE: 413,
      UNSUPPORTED_MEDIA_TYPE: 415,
      WEBHOOKS_NOT_CONFIGURED: 422,
      RATE_LIMIT_EXCEEDED: 429,
      INTERNAL: 500,
    };
    const merged = { ...dashboard.errorStatuses, ...rebuild.errorStatuses, ...control.errorStatuses };
    expect(merged).toEqual({ ...decided, CONFLICT: 409 });
    // Each operation's codes are answered under a status it documents, or under its `default`.
    for (const operation of Object.values(rebuild.operations)) {
      for (const [code, status] of Object.entries(operation.errors)) {
        expect(merged[code as keyof typeof merged], code).toBe(status);
      }
    }
    expect(rebuild.operations.submitRebuild.errors).toMatchObject({ WEBHOOKS_NOT_CONFIGURED: 422 });
  });

  it("reads what no OpenAPI keyword states from the documents' x- extensions", () => {
    expect(rebuild.pathPrefix).toBe("/api/integration/partners/hostpanel");
    expect(dashboard.basePath).toBe("/v1");
    expect(control.basePath).toBe("/__mock");
    expect(dashboard.bodyLimit).toBe(1024 * 1024);
    expect(control.operations.restoreMockSnapshot.bodyLimit).toBe(64 * 1024 * 1024);
    expect(rebuild.webhooks.partnerProjectRebuildCompleted.retryDelaysSeconds).toEqual([10, 20, 40, 80]);
    expect(rebuild.operations.submitRebuild.challenge).toBe(
      'ApiKey realm="rebuild", headers="X-Partner-Id X-API-Key"',
    );
  });

  it("fails the generation when x-error-statuses restates a code a schema states", () => {
    const documents = all();
    table(documents, 1).RATE_LIMIT_EXCEEDED = 429;
    expect(() => generateOperations(documents)).toThrow(/restates RATE_LIMIT_EXCEEDED/);
  });

  it("fails the generation when a code has no status, or two in two documents", () => {
    const missing = all();
    delete table(missing, 0).FORBIDDEN;
    expect(() => generateOperations(missing)).toThrow(/openapi\/dashboard\.yaml gives FORBIDDEN no status/);
    const twice = all();
    table(twice, 2).FORBIDDEN = 401;
    expect(() => generateOperations(twice)).toThrow(/FORBIDDEN is 401 in openapi\/mock-control\.yaml/);
  });

  it("names each security scheme's header as the documents define it", () => {
    for (const [registry, name] of [
      [dashboard, "dashboard"],
      [rebuild, "rebuild"],
      [control, "mock-control"],
    ] as const) {
      const components = read(name).document.components as { securitySchemes?: Record<string, Node> };
      const defined = Object.fromEntries(
        Object.entries(components.securitySchemes ?? {}).map(([scheme, spec]) => [
          scheme,
          // RFC 9110 §11.6.2: an http scheme's credentials go in Authorization.
          spec.type === "http" ? "Authorization" : spec.name,
        ]),
      );
      expect(registry.credentialHeaders, name).toEqual(defined);
    }
    expect(rebuild.credentialHeaders).toEqual({
      partnerId: "X-Partner-Id",
      apiKey: "X-API-Key",
      webhookApiKey: "X-API-Key",
    });
    expect(dashboard.credentialHeaders).toEqual({ bearerAuth: "Authorization" });
  });

  it("lists the request headers each API reads: credentials, then Content-Type of a JSON body", () => {
    expect(dashboard.requestHeaders).toEqual(["Authorization", "Content-Type"]);
    expect(rebuild.requestHeaders).toEqual(["X-Partner-Id", "X-API-Key", "Content-Type"]);
    expect(control.requestHeaders).toEqual(["Content-Type"]);
  });

  it("names the header carrying the wait and the allowed methods, on every response documenting it", () => {
    expect(rebuild.carriedHeaders).toEqual({ "retry-after": "retry-after", "allowed-methods": "allow" });
    expect(control.carriedHeaders).toEqual({ "retry-after": "retry-after", "allowed-methods": "allow" });
    expect(dashboard.carriedHeaders).toEqual({ "allowed-methods": "allow" });
    // Every Allow and Retry-After a document states, inline or as a component, says what it carries.
    const expected: Record<string, string> = { allow: "allowed-methods", "retry-after": "retry-after" };
    for (const name of ["dashboard", "rebuild", "mock-control"]) {
      const found: string[] = [];
      const walk = (node: unknown): void => {
        if (!node || typeof node !== "object") return;
        for (const [key, value] of Object.entries(node)) {
          const carries = expected[key.toLowerCase()];
          if (carries && value && typeof value === "object" && "schema" in value) {
            expect((value as Node)["x-carries"], `${name} ${key}`).toBe(carries);
            found.push(key);
          }
          walk(value);
        }
      };
      walk(read(name).document);
      expect(found.length, name).toBeGreaterThan(0);
    }
  });

  it("gives every dashboard operation the two Bearer challenges of contract-decisions.md", () => {
    for (const operation of Object.values(dashboard.operations)) {
      expect(operation.challenges, operation.operationId).toEqual({
        missing: 'Bearer realm="dashboard"',
        invalid: 'Bearer realm="dashboard", error="invalid_token"',
      });
    }
  });

  it("gives the SDK the header names it sends and reads, lower case, as separate constants", () => {
    expect({ ...sdkHeaders }).toEqual({
      REBUILD_PARTNER_ID_HEADER: "x-partner-id",
      REBUILD_API_KEY_HEADER: "x-api-key",
      WEBHOOK_API_KEY_HEADER: "x-api-key",
      CREDENTIAL_HEADERS: ["authorization", "x-partner-id", "x-api-key"],
      RATE_LIMIT_HEADERS: ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"],
      RETRY_AFTER_HEADER: "retry-after",
    });
  });

  it("fails the generation when a challenge is not a value of its header's schema", () => {
    const documents = all();
    const headers = componentHeaders(documents, 0);
    (headers["WWW-Authenticate"] as Node)["x-challenges"] = { missing: 'Basic realm="dashboard"' };
    expect(() => generateOperations(documents)).toThrow(/x-challenges missing is not a value/);
  });

  it("fails the generation when one value is carried by two headers, in one document or two", () => {
    const one = all();
    const headers = componentHeaders(one, 1);
    (headers["Retry-After"] as Node)["x-carries"] = "allowed-methods";
    expect(() => generateOperations(one)).toThrow(/x-carries allowed-methods on retry-after and allow/);
    const two = all();
    const paths = two[0]?.document.paths as Record<string, Record<string, Node>>;
    const [item] = Object.values(paths);
    const [operation] = Object.values(item ?? {});
    const responses = operation?.responses as Record<string, { headers?: Record<string, Node> }>;
    const allow = Object.values(responses).find((response) => response.headers?.Allow)?.headers?.Allow;
    if (!allow) throw new Error("no Allow header on the dashboard's first operation");
    allow["x-carries"] = "retry-after";
    expect(() => generateOperations(two)).toThrow(
      /retry-after is carried by retry-after in openapi\/rebuild\.yaml but allow/,
    );
  });
});
