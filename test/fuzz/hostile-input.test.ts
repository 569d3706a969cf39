// Issue "contract conformance", item 4: over 10,000 generated bad requests, across every operation
// of both APIs and the control API, sent as raw HTTP to the standalone mock. Each must get a 4xx
// (the one its break decides, when it decides one) with a well-formed error body; no 5xx, no crash;
// and no resource created, changed or deleted (contract-decisions: a rejected request changes
// nothing but the rate counter and the caller's `lastUsedAt`). The suite-wide observer also checks
// each answer against openapi/ (a documented status for the operation, a body that validates).
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClock, type MockWorld, seededRandom } from "../../mocks/index.js";
import { type RunningMockServer, startMockServer } from "../../mocks/node.js";
import { suiteLog } from "../support/conformance-observer.js";
import { documentedResponses } from "../support/contract-inventory.js";
import { type RawAnswer, rawClient } from "../support/raw-http.js";
import { findOperation } from "../support/request-validator.js";
import {
  badBodies,
  badControlRequests,
  badCredentials,
  badEdgeRequests,
  badPathsAndMethods,
  badQueries,
  forbidden,
  type HostileRequest,
  oddIds,
  preflights,
} from "./hostile-requests.js";

const SEED = 20_261_122;
const TIME_LIMIT_MS = 90_000;

let mock: RunningMockServer;
let client: ReturnType<typeof rawClient>;
const internalErrors: unknown[] = [];
/** Requests sent, by the operation they address (`control API`, or `no operation` for bad paths). */
const tally = new Map<string, number>();

function operationOf({ method, path }: HostileRequest): string {
  const pathname = path.split("?")[0] ?? "";
  if (pathname.startsWith("/__mock")) return "control API";
  const [api, below] = pathname.startsWith("/v1/")
    ? (["dashboard", pathname.slice(3)] as const)
    : (["rebuild", pathname] as const);
  const found = findOperation(api, method, below);
  return found ? `${api} ${method} ${found.template}` : "no operation";
}

beforeAll(async () => {
  mock = await startMockServer({
    port: 0,
    clock: createClock({ frozenAt: Date.parse("2026-03-01T12:00:00+00:00") }),
    random: seededRandom(SEED),
    onInternalError: (error) => internalErrors.push(error),
  });
  // The rate limit would answer 429 before the body is ever read; the limit is not under test here.
  mock.world.upsertPartner(1001, { rateLimitPerHour: 1_000_000 });
  client = rawClient(mock.origin);
});

afterAll(async () => {
  client?.close();
  await mock?.close();
});

/**
 * The world's resources, without what a rejected request may still touch: `lastUsedAt`, and the
 * rate windows' counts (every admitted rebuild request counts, whatever happens to it later).
 */
function resources(world: MockWorld): string {
  return JSON.stringify(world.state(), (key, value) =>
    key === "lastUsedAt" || key === "rateLimits" ? undefined : value,
  );
}

function wellFormedError(answer: RawAnswer, method = "GET"): void {
  expect(answer.headers["content-type"]).toMatch(/^application\/json/);
  // A HEAD answer is the GET answer's head: its body is announced, not sent.
  if (method === "HEAD") {
    expect(Number(answer.headers["content-length"])).toBeGreaterThan(0);
    expect(answer.text).toBe("");
    return;
  }
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(
    answer.status === 400 ? ["error", "errors", "message"] : ["error", "message"],
  );
  expect(body.message).toEqual(expect.any(String));
  expect(body.error).toEqual({ code: expect.any(String) });
  if (answer.status === 400) {
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { type: expect.any(String), path: expect.any(String), message: expect.any(String) },
      ]),
    );
    for (const error of body.errors as unknown[])
      expect(Object.keys(error as object).sort()).toEqual(["message", "path", "type"]);
  }
  if (answer.status === 405) expect(answer.headers.allow).toEqual(expect.any(String));
}

async function refused(request: HostileRequest): Promise<void> {
  const before = resources(mock.world);
  const answer = await client.send(request);
  tally.set(operationOf(request), (tally.get(operationOf(request)) ?? 0) + 1);
  const seen = `${request.kind} → ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, seen).toBeGreaterThanOrEqual(400);
  expect(answer.status, seen).toBeLessThan(500);
  if (request.expected !== undefined) expect(answer.status, seen).toBe(request.expected);
  wellFormedError(answer, request.method);
  expect(resources(mock.world), `${seen}: the state changed`).toBe(before);
  const violations = suiteLog.takeViolations();
  expect(violations, seen).toEqual([]);
}

const runs = (numRuns: number) => ({
  numRuns,
  seed: SEED,
  interruptAfterTimeLimit: TIME_LIMIT_MS,
  markInterruptAsFailure: true,
});

describe("10,000+ hostile requests: a documented 4xx with a well-formed body, nothing changed, no crash", () => {
  it("bad bodies on every operation that takes one (400, 413, 415)", {
    timeout: TIME_LIMIT_MS + 10_000,
  }, async () => {
    await fc.assert(fc.asyncProperty(badBodies(), refused), runs(4_000));
  });

  it("missing, garbled, repeated, unknown and expired credentials on every operation (401)", {
    timeout: TIME_LIMIT_MS + 10_000,
  }, async () => {
    await fc.assert(fc.asyncProperty(badCredentials(), refused), runs(1_500));
  });

  it("callers that may not call the operation (403)", { timeout: TIME_LIMIT_MS + 10_000 }, async () => {
    await fc.assert(fc.asyncProperty(forbidden(), refused), runs(800));
  });

  it("bad query strings (400) and odd ids (404)", { timeout: TIME_LIMIT_MS + 10_000 }, async () => {
    await fc.assert(fc.asyncProperty(fc.oneof(badQueries(), oddIds()), refused), runs(1_700));
  });

  it("unknown paths (404) and wrong methods (405)", { timeout: TIME_LIMIT_MS + 10_000 }, async () => {
    await fc.assert(fc.asyncProperty(badPathsAndMethods(), refused), runs(800));
  });

  it("the control API's bad bodies, ids and settings", { timeout: TIME_LIMIT_MS + 10_000 }, async () => {
    await fc.assert(fc.asyncProperty(badControlRequests(), refused), runs(1_400));
  });

  it("what the server's edge refuses: Hosts not allowed, cross-site origins on the control API, request-targets that are not URLs (403, 400)", {
    timeout: TIME_LIMIT_MS + 10_000,
  }, async () => {
    await fc.assert(fc.asyncProperty(badEdgeRequests(), refused), runs(1_000));
  });

  it("CORS preflights from allowed origins: 204 on the mock's paths, 404 beside them, nothing changed", {
    timeout: TIME_LIMIT_MS + 10_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(preflights(), async (request) => {
        const before = resources(mock.world);
        const answer = await client.send(request);
        const seen = `${request.kind} ${request.path} → ${answer.status}`;
        if (request.known) {
          expect(answer.status, seen).toBe(204);
          expect(answer.headers["access-control-allow-origin"], seen).toBe(request.headers[0]?.[1]);
        } else {
          expect(answer.status, seen).toBe(404);
          wellFormedError(answer);
        }
        expect(resources(mock.world), `${seen}: the state changed`).toBe(before);
        expect(suiteLog.takeViolations(), seen).toEqual([]);
      }),
      runs(500),
    );
  });

  it("sent over 10,000 of them, to every operation; the server never failed and still answers", async () => {
    const sent = [...tally.values()].reduce((sum, n) => sum + n, 0);
    expect(sent).toBeGreaterThanOrEqual(10_000);
    const operations = new Set(documentedResponses().map((key) => key.split(" ").slice(0, 3).join(" ")));
    for (const operation of [...operations, "control API", "no operation"]) {
      expect(tally.get(operation) ?? 0, operation).toBeGreaterThanOrEqual(100);
    }
    expect(internalErrors).toEqual([]);
    const answer = await client.send({
      method: "GET",
      path: "/v1/si/servers",
      headers: [["authorization", "Bearer mock-token-unrestricted"]],
      body: null,
    });
    expect(answer.status).toBe(200);
  });
});
