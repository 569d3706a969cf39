// The conformance check is only worth what it catches: it must be attached to every kind of mock the
// suite builds, pass what conforms and report each kind of departure, in both directions.
import { setupServer } from "msw/node";
import { describe, expect, it } from "vitest";
import { createMockDispatcher } from "../../mocks/http/mock-dispatcher.js";
import { createHandlers, createMockWorld, type MockObservation } from "../../mocks/index.js";
import { startMockServer } from "../../mocks/node.js";
import { ConformanceLog, suiteLog } from "../support/conformance-observer.js";
import { type RequestUnderCheck, requestViolations } from "../support/request-validator.js";

const requestsSeen = () => suiteLog.record("")?.requests ?? 0;
const ORIGIN = "http://127.0.0.1:4010";
const BEARER = { authorization: "Bearer mock-token-unrestricted" };
const GUID = "5b1c3f0e-2a4d-4c6b-8e9f-0a1b2c3d4e01";

describe("the suite-wide observer is attached to every mock the suite builds", () => {
  it("MSW handlers from createHandlers", async () => {
    const server = setupServer(...createHandlers(createMockWorld()));
    server.listen({ onUnhandledRequest: "error" });
    try {
      const before = requestsSeen();
      await fetch(`${ORIGIN}/v1/si/servers`, { headers: BEARER });
      expect(requestsSeen()).toBe(before + 1);
    } finally {
      server.close();
    }
  });

  it("the node:http server from startMockServer", async () => {
    const running = await startMockServer({ port: 0 });
    try {
      const before = requestsSeen();
      await (await fetch(`${running.dashboardBaseUrl}/si/servers`, { headers: BEARER })).text();
      expect(requestsSeen()).toBe(before + 1);
    } finally {
      await running.close();
    }
  });

  it("a dispatcher from createMockDispatcher, keeping the caller's own observer", async () => {
    const own: MockObservation[] = [];
    const dispatch = createMockDispatcher(createMockWorld(), { observe: (o) => own.push(o) });
    const before = requestsSeen();
    await dispatch({
      method: "GET",
      url: new URL(`${ORIGIN}/v1/si/servers`),
      headers: new Headers(BEARER),
      body: null,
    });
    expect(requestsSeen()).toBe(before + 1);
    expect(own.map((o) => o.kind === "request" && o.response.status)).toEqual([200]);
  });
});

describe("a conformance log reports what departs from the contract", () => {
  const world = createMockWorld();
  const exchange = (
    method: string,
    path: string,
    response: { status: number; body?: unknown; headers?: Record<string, string> },
    request: { headers?: Record<string, string>; json?: unknown } = {},
    fault: "none" | "error" | "reset" = "none",
  ): string[] => {
    const log = new ConformanceLog();
    const body = request.json === undefined ? null : new TextEncoder().encode(JSON.stringify(request.json));
    const headers = new Headers({
      ...BEARER,
      ...(body ? { "content-type": "application/json" } : {}),
      ...request.headers,
    });
    log.observer(
      world,
      {},
    )({
      kind: "request",
      request: { method, url: new URL(`${ORIGIN}${path}`), headers, body },
      response,
      fault,
    });
    return log.takeViolations();
  };
  const error = (code: string) => ({ message: "m", error: { code } });

  it("passes a conforming exchange", () => {
    expect(exchange("GET", "/v1/si/servers", { status: 200, body: { totalCount: 0, data: [] } })).toEqual([]);
    expect(
      exchange("GET", "/__mock/faults", {
        status: 200,
        body: { latencyMs: 0, errorRate: 0, resetRate: 0, rules: [] },
      }),
    ).toEqual([]);
  });

  it("checks the control API's answers against openapi/mock-control.yaml", () => {
    const [wrongBody] = exchange("GET", "/__mock/faults", {
      status: 200,
      body: { latencyMs: 0, errorRate: 0 },
    });
    expect(wrongBody).toContain("must have required property 'resetRate'");
    const [failed] = exchange("GET", "/__mock/state", { status: 500, body: error("INTERNAL") });
    expect(failed).toContain("500: the mock failed");
    const [undocumented] = exchange("POST", "/__mock/reset", { status: 204, body: {} });
    expect(undocumented).toContain("the contract documents no body for this status");
    const [unknownCode] = exchange("GET", "/__mock/nothing", {
      status: 404,
      body: error("WEBHOOKS_NOT_CONFIGURED"),
    });
    expect(unknownCode).toContain("/error/code must be equal to one of the allowed values");
  });

  it("reports a response body that breaks the schema", () => {
    const [report] = exchange("GET", "/v1/si/servers", { status: 200, body: { totalCount: "0", data: [] } });
    expect(report).toContain("/totalCount must be integer");
  });

  it("reports a status only `default` covers with a code it does not allow, and any 5xx not injected", () => {
    expect(exchange("GET", "/v1/si/servers", { status: 409, body: error("CONFLICT") }).join()).toContain(
      "/error/code must be equal to one of the allowed values",
    );
    expect(exchange("GET", "/v1/si/servers", { status: 500, body: error("INTERNAL") }).join()).toContain(
      "only injected faults may answer 5xx",
    );
    expect(
      exchange(
        "GET",
        "/v1/si/servers",
        { status: 503, body: error("INTERNAL"), headers: { "retry-after": "0" } },
        {},
        "error",
      ),
    ).toEqual([]);
  });

  it("reports a request outside the contract that the mock accepted", () => {
    const created = {
      data: {
        id: 10,
        name: "x",
        type: "user",
        claims: [],
        createdAt: "2026-01-01T00:00:00+00:00",
        lastUsedAt: null,
        expireAt: null,
        token: "t".repeat(32),
      },
    };
    const report = exchange(
      "POST",
      "/v1/dashboard/api-tokens",
      { status: 201, body: created },
      { json: { name: "x" } },
    );
    expect(report.join()).toContain("the request breaks the contract, yet was answered 201");
    expect(report.join()).toContain("must have required property 'claims'");
  });

  it("passes a request outside the contract answered with a documented 4xx", () => {
    const answer = {
      status: 400,
      body: { ...error("VALIDATION_FAILED"), errors: [{ type: "required", path: "claims", message: "m" }] },
    };
    expect(exchange("POST", "/v1/dashboard/api-tokens", answer, { json: { name: "x" } })).toEqual([]);
  });

  it("reports a contract-valid request answered 400 unless every field error names a documented rule", () => {
    const rateLimit = { "ratelimit-limit": "30", "ratelimit-remaining": "29", "ratelimit-reset": "3600" };
    const rejected = (errors: { type: string; path: string; message: string }[]) => ({
      status: 400,
      headers: rateLimit,
      body: { ...error("VALIDATION_FAILED"), errors },
    });
    const valid = {
      headers: { "x-partner-id": "1001", "x-api-key": "k" },
      json: { sourceUrl: "http://10.0.0.1/" },
    };
    const REBUILDS = "/api/integration/partners/hostpanel/rebuilds";
    const privateHost = {
      type: "invalid_value",
      path: "sourceUrl",
      message: "must be of a public host: 10.0.0.1 is a private address (10.0.0.0/8)",
    };
    expect(exchange("POST", REBUILDS, rejected([privateHost]), valid)).toEqual([]);

    const stricter = { type: "too_big", path: "prompt", message: "must be at most 50 characters" };
    const [report] = exchange("POST", REBUILDS, rejected([privateHost, stricter]), valid);
    const problem = report
      ?.split("\n")
      .find((line) => line.includes("valid by the contract, yet was answered 400"));
    expect(problem).toContain('"path":"prompt"');
    expect(problem).not.toContain('"path":"sourceUrl"');
    // The rule must be the one documented for this path, type and message, not any error of that type.
    const misplaced = { ...privateHost, path: "prompt" };
    expect(exchange("POST", REBUILDS, rejected([misplaced]), valid).join()).toContain(
      "valid by the contract, yet was answered 400",
    );
  });

  it("reports a callback that breaks the webhooks entry, or lacks its key or media type", () => {
    const log = new ConformanceLog();
    const deliver = (headers: Record<string, string>, body: unknown) =>
      log.observer(
        world,
        {},
      )({
        kind: "callback",
        delivery: { url: "https://hooks.example.com/", headers, body: JSON.stringify(body) },
        outcome: { status: 200 },
      });
    const payload = {
      event_type: "partner_project_rebuild_completed",
      request_id: "r",
      partner_id: 1001,
      project_id: "p",
      source_url: "https://www.example.com/",
      status: "success",
      preview_url: "https://preview.example.com/p",
    };
    deliver({ "content-type": "application/json", "x-api-key": "k" }, payload);
    expect(log.takeViolations()).toEqual([]);
    deliver({ "content-type": "text/plain" }, { ...payload, status: "done" });
    const [report] = log.takeViolations();
    expect(report).toContain("application/json expected");
    expect(report).toContain("X-API-Key (webhookApiKey) is missing");
    expect(report).toContain("/status must be equal to constant");
  });
});

describe("the request validator reads the contract's parameters, security and bodies", () => {
  const check = (
    api: "dashboard" | "rebuild",
    method: string,
    target: string,
    init: { headers?: Record<string, string>; body?: string } = {},
  ) => {
    const url = new URL(target, ORIGIN);
    const request: RequestUnderCheck = {
      method,
      path: url.pathname,
      query: url.searchParams,
      headers: new Headers(init.headers),
      body: init.body === undefined ? null : new TextEncoder().encode(init.body),
    };
    return requestViolations(api, request);
  };
  const json = { ...BEARER, "content-type": "application/json" };
  const rebuild = { "x-partner-id": "1001", "x-api-key": "k", "content-type": "application/json" };
  const REBUILDS = "/api/integration/partners/hostpanel/rebuilds";

  it.each([
    ["GET", "/si/servers?page=2&pageSize=100&unknown=1", {}],
    ["DELETE", `/si/servers/${GUID}`, {}],
    ["GET", "/dashboard/api-tokens/3", {}],
    ["GET", "/accounts/team-guid?email=owner%40example.com", {}],
    [
      "POST",
      "/dashboard/api-tokens",
      {
        headers: { ...json, "content-type": "application/json; charset=utf-8" },
        body: '{"name":"n","claims":[]}',
      },
    ],
    [
      "POST",
      "/accounts/invitations",
      {
        headers: { ...json, "content-type": "application/merge-patch+json" },
        body: '{"emails":["a@example.com"]}',
      },
    ],
  ] as const)("accepts %s %s", (method, path, init) => {
    expect(
      check("dashboard", method, path, {
        headers: { ...BEARER, ...("headers" in init ? init.headers : {}) },
        ...("body" in init ? { body: init.body } : {}),
      }),
    ).toEqual([]);
  });

  it.each([
    ["no credentials", "GET", "/si/servers", {}, "Bearer"],
    [
      "two Authorization values",
      "GET",
      "/si/servers",
      { headers: { authorization: "Bearer a, Bearer b" } },
      "Bearer",
    ],
    ["an unknown path", "GET", "/si/servers/x/y", { headers: BEARER }, "not an operation"],
    ["an undocumented method", "PATCH", "/si/servers", { headers: BEARER }, "not an operation"],
    ["a page of 0", "GET", "/si/servers?page=0", { headers: BEARER }, "must be >= 1"],
    ["a repeated page", "GET", "/si/servers?page=1&page=2", { headers: BEARER }, "repeated"],
    ["a page that is not a number", "GET", "/si/servers?page=one", { headers: BEARER }, "must be integer"],
    [
      "a token id that is not an integer",
      "GET",
      "/dashboard/api-tokens/abc",
      { headers: BEARER },
      "must be integer",
    ],
    [
      "a server id that is not a GUID",
      "DELETE",
      "/si/servers/abc",
      { headers: BEARER },
      'must match format "uuid"',
    ],
    ["a missing required query parameter", "GET", "/accounts/team-guid", { headers: BEARER }, "required"],
    ["a missing body", "POST", "/dashboard/api-tokens", { headers: json }, "body is required"],
    ["invalid JSON", "POST", "/dashboard/api-tokens", { headers: json, body: "{" }, "not UTF-8 JSON"],
    [
      "a text/plain body",
      "POST",
      "/dashboard/api-tokens",
      { headers: { ...BEARER, "content-type": "text/plain" }, body: "{}" },
      "not documented",
    ],
    [
      "an unknown field",
      "POST",
      "/dashboard/api-tokens",
      { headers: json, body: '{"name":"n","claims":[],"x":1}' },
      "additionalProperty",
    ],
    [
      "a wrong type",
      "POST",
      "/dashboard/api-tokens",
      { headers: json, body: '{"name":1,"claims":[]}' },
      "must be string",
    ],
    [
      "a body over 1 MiB",
      "POST",
      "/dashboard/api-tokens",
      { headers: json, body: " ".repeat(1024 * 1024 + 1) },
      "more than 1 MiB",
    ],
  ] as const)("rejects %s", (_, method, path, init, expected) => {
    expect(check("dashboard", method, path, init).join("\n")).toContain(expected);
  });

  it("checks the rebuild API's two credential headers and its body", () => {
    expect(
      check("rebuild", "POST", REBUILDS, {
        headers: rebuild,
        body: '{"sourceUrl":"https://www.example.com/"}',
      }),
    ).toEqual([]);
    const { "x-api-key": _, ...withoutKey } = rebuild;
    expect(
      check("rebuild", "POST", REBUILDS, {
        headers: withoutKey,
        body: '{"sourceUrl":"https://www.example.com/"}',
      }).join(),
    ).toContain("X-API-Key");
    expect(
      check("rebuild", "POST", REBUILDS, {
        headers: rebuild,
        body: '{"sourceUrl":"https://www.example.com/","prompt":null}',
      }).join(),
    ).toContain("/prompt must be string");
  });
});

describe("a conformance log checks the standalone server's edge answers", () => {
  const world = createMockWorld();
  const edge = (
    rule: "preflight" | "host" | "origin" | "request-target",
    path: string,
    response: { status: number; body?: unknown; headers?: Record<string, string> },
    headers: Record<string, string> = {},
  ) => {
    const log = new ConformanceLog();
    log.observer(
      world,
      {},
    )({
      kind: "request",
      request: {
        method: "OPTIONS",
        url: new URL(`${ORIGIN}${path}`),
        headers: new Headers(headers),
        body: null,
      },
      response,
      fault: "none",
      edge: rule,
    });
    return { violations: log.takeViolations(), covered: log.record("")?.covered ?? [] };
  };
  const preflight = {
    status: 204,
    headers: {
      "access-control-allow-origin": "http://localhost:5173",
      "access-control-allow-methods": "GET, HEAD, POST",
      "access-control-allow-headers": "Authorization, Content-Type, X-Partner-Id, X-API-Key",
      "access-control-max-age": "600",
      vary: "Origin",
    },
  };
  const origin = { origin: "http://localhost:5173" };

  it("passes and covers conforming ones", () => {
    expect(edge("preflight", "/v1/si/servers", preflight, origin)).toEqual({
      violations: [],
      covered: ["edge OPTIONS preflight 204"],
    });
    expect(
      edge("host", "/x", { status: 403, body: { message: "m", error: { code: "FORBIDDEN" } } }).violations,
    ).toEqual([]);
    const badTarget = {
      message: "m",
      error: { code: "VALIDATION_FAILED" },
      errors: [{ type: "invalid_format", path: "", message: "m" }],
    };
    expect(edge("request-target", "/", { status: 400, body: badTarget }).violations).toEqual([]);
  });

  it("reports a preflight that allows other methods than the contract's, another origin, or too few headers", () => {
    const wrongMethods = {
      ...preflight,
      headers: { ...preflight.headers, "access-control-allow-methods": "GET, POST" },
    };
    expect(edge("preflight", "/v1/si/servers", wrongMethods, origin).violations.join()).toContain(
      "Access-Control-Allow-Methods is GET, POST, the contract has GET, HEAD, POST",
    );
    const otherOrigin = {
      ...preflight,
      headers: { ...preflight.headers, "access-control-allow-origin": "*" },
    };
    expect(edge("preflight", "/v1/si/servers", otherOrigin, origin).violations.join()).toContain(
      "Access-Control-Allow-Origin",
    );
    const fewHeaders = {
      ...preflight,
      headers: { ...preflight.headers, "access-control-allow-headers": "Authorization" },
    };
    expect(edge("preflight", "/v1/si/servers", fewHeaders, origin).violations.join()).toContain(
      "lacks content-type",
    );
  });

  it("reports a refusal with another status, code or body shape", () => {
    expect(
      edge("origin", "/__mock/reset", {
        status: 401,
        body: { message: "m", error: { code: "FORBIDDEN" } },
      }).violations.join(),
    ).toContain("is 401, not 403");
    expect(
      edge("host", "/", {
        status: 403,
        body: { message: "m", error: { code: "NOT_FOUND" } },
      }).violations.join(),
    ).toContain("error.code is not FORBIDDEN");
    expect(
      edge("request-target", "/", {
        status: 400,
        body: { message: "m", error: { code: "VALIDATION_FAILED" } },
      }).violations.join(),
    ).toContain("must have required property 'errors'");
  });
});
