// The operation registries (src/generated/<doc>-operations.ts, decisions/049): what the mock reads
// instead of restating the contract, checked against the documents read here by hand, and the
// generator shown to refuse a document that states a code's status twice or not at all.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import * as dashboard from "../../src/generated/dashboard-operations.js";
import * as control from "../../src/generated/mock-control-operations.js";
import * as rebuild from "../../src/generated/rebuild-operations.js";

type Node = Record<string, unknown>;
interface Parsed {
  name: string;
  document: Node;
}
interface OperationsGenerator {
  generateOperations(documents: Parsed[]): Array<{ path: string; content: string }>;
}
// A plain .mjs script (it runs before anything is built); a variable path keeps the type checker
// from looking for its declarations.
const generatorPath = "../../scripts/generate/operations.mjs";
const { generateOperations } = (await import(/* @vite-ignore */ generatorPath)) as OperationsGenerator;

const read = (name: string): Parsed => ({
  name,
  document: parse(readFileSync(new URL(`../../openapi/${name}.yaml`, import.meta.url), "utf8")) as Node,
});
const all = () => ["dashboard", "rebuild", "mock-control"].map(read);
/** A document's `x-error-statuses`, to change in a copy. */
const table = (documents: Parsed[], index: number) => {
  const found = documents[index]?.document["x-error-statuses"];
  if (!found) throw new Error(`document ${index} has no x-error-statuses`);
  return found as Record<string, number>;
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
});
