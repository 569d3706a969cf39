// How the assumption recorder maps one exchange to the elements it confirms or contradicts
// (decisions/038), exchange by exchange, without a server.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createAssumptionRecorder, type Exchange } from "../../mocks/assumptions/recorder.js";
import { assumedElements } from "../../src/generated/assumptions.js";

const REBUILDS = "/api/integration/partners/hostpanel/rebuilds";
const RATE = { "ratelimit-limit": "30", "ratelimit-remaining": "29", "ratelimit-reset": "3600" };
const json = { "content-type": "application/json" };

function exchange(over: Partial<Exchange>): Exchange {
  return {
    document: "dashboard",
    method: "GET",
    path: "/si/servers",
    query: "",
    requestHeaders: {},
    requestBody: undefined,
    status: 200,
    responseHeaders: json,
    responseBody: { totalCount: 0, data: [] },
    ...over,
  };
}

function statuses(...exchanges: Exchange[]) {
  const recorder = createAssumptionRecorder();
  for (const one of exchanges) recorder.record(one);
  const report = recorder.report();
  const of = (status: string) =>
    report.assumptions.filter((e) => e.status === status).map((e) => `${e.document} ${e.pointer}`);
  return { report, confirmed: of("confirmed"), contradicted: of("contradicted") };
}

const envelope = (code: string) => ({ message: "Refused", error: { code } });

describe("the assumption recorder", () => {
  it("reports every assumed element once, unexercised before any traffic", () => {
    const { report } = statuses();
    expect(report.assumptions).toHaveLength(assumedElements.length);
    expect(new Set(report.assumptions.map((e) => e.status))).toEqual(new Set(["unexercised"]));
    expect(report.violations).toEqual([]);
  });

  it("confirms the challenge header and the error envelope of a 401 as documented", () => {
    const { confirmed, contradicted, report } = statuses(
      exchange({
        status: 401,
        responseHeaders: { ...json, "WWW-Authenticate": 'Bearer realm="dashboard"' },
        responseBody: envelope("UNAUTHORIZED"),
      }),
    );
    expect(confirmed.sort()).toEqual(
      [
        "dashboard /components/headers/WWW-Authenticate",
        "dashboard /components/schemas/ErrorResponse",
        "dashboard /components/schemas/ErrorResponse/properties/message",
        "dashboard /components/schemas/ErrorResponse/properties/error",
        "dashboard /components/schemas/ErrorResponse/properties/error/properties/code",
      ].sort(),
    );
    expect(contradicted).toEqual([]);
    expect(report.violations).toEqual([]);
  });

  it("contradicts the documented success response when another success status answers, and judges no error response", () => {
    const { contradicted, report } = statuses(
      exchange({
        method: "POST",
        path: "/si/servers",
        requestBody: { servers: [{ address: "https://panel.example.com", product: "plesk" }] },
        status: 200,
        responseBody: { data: [] },
      }),
    );
    expect(contradicted).toEqual(["dashboard /paths/~1si~1servers/post/responses/201"]);
    expect(report.assumptions.find((e) => e.pointer.endsWith("/post/responses/201"))?.evidence).toBe(
      "POST /si/servers answered 200 where 201 is documented",
    );
  });

  it("contradicts the response a probe expected when another status answers", () => {
    const { contradicted } = statuses(
      exchange({
        method: "POST",
        path: "/si/servers",
        status: 400,
        responseBody: { ...envelope("VALIDATION_FAILED"), errors: [] },
        expected: 415,
      }),
    );
    expect(contradicted).toEqual(["dashboard /paths/~1si~1servers/post/responses/415"]);
  });

  it("contradicts a required assumed header that is absent, and confirms the others", () => {
    const { contradicted, confirmed } = statuses(
      exchange({
        document: "rebuild",
        method: "POST",
        path: REBUILDS,
        requestBody: {},
        status: 400,
        responseHeaders: { ...json, "ratelimit-limit": "30", "ratelimit-reset": "x" },
        responseBody: {
          ...envelope("VALIDATION_FAILED"),
          errors: [{ type: "required", path: "sourceUrl", message: "is required" }],
        },
      }),
    );
    expect(contradicted.sort()).toEqual(
      [
        "rebuild /components/headers/RateLimit-Remaining",
        "rebuild /components/headers/RateLimit-Reset",
      ].sort(),
    );
    expect(confirmed).toContain("rebuild /components/headers/RateLimit-Limit");
    expect(confirmed).toContain("rebuild /components/schemas/FieldError/properties/path");
  });

  it("contradicts only the operation when the service does not have it", () => {
    const { contradicted, confirmed } = statuses(
      exchange({
        method: "DELETE",
        path: "/dashboard/api-tokens/4",
        status: 405,
        responseBody: envelope("METHOD_NOT_ALLOWED"),
      }),
    );
    expect(contradicted).toEqual(["dashboard /paths/~1dashboard~1api-tokens~1{id}/delete"]);
    expect(confirmed).toEqual([]);
  });

  it("confirms each operation's default response and Allow header when a method the path lacks gets 405", () => {
    const { confirmed } = statuses(
      exchange({
        method: "PUT",
        path: "/accounts/team-guid",
        status: 405,
        responseHeaders: { ...json, allow: "GET, HEAD" },
        responseBody: envelope("METHOD_NOT_ALLOWED"),
      }),
    );
    expect(confirmed).toContain("dashboard /paths/~1accounts~1team-guid/get/responses/default");
    expect(confirmed).toContain("dashboard /paths/~1accounts~1team-guid/get/responses/default/headers/Allow");
  });

  it("contradicts each operation's default response when a method the path lacks gets another status than expected", () => {
    const { contradicted, report } = statuses(
      exchange({
        method: "PUT",
        path: "/accounts/team-guid",
        status: 404,
        responseBody: envelope("NOT_FOUND"),
        expected: 405,
      }),
    );
    expect(contradicted).toEqual(["dashboard /paths/~1accounts~1team-guid/get/responses/default"]);
    expect(report.assumptions.find((e) => e.status === "contradicted")?.evidence).toBe(
      "PUT /accounts/team-guid answered 404 where 405 is documented",
    );
  });

  it("contradicts a missing required assumed field at its pointer, and leaves what holds it undecided", () => {
    const token = {
      id: 4,
      name: "t",
      type: "user",
      claims: [],
      createdAt: "2026-01-01T00:00:00+00:00",
      lastUsedAt: null,
      expireAt: null,
    };
    const { contradicted, confirmed } = statuses(
      exchange({ path: "/dashboard/api-tokens/4", status: 200, responseBody: token }),
    );
    expect(contradicted).toEqual(["dashboard /components/schemas/ApiTokenResponse/properties/data"]);
    expect(confirmed).not.toContain("dashboard /paths/~1dashboard~1api-tokens~1{id}/get/responses/200");
    expect(confirmed).not.toContain("dashboard /components/schemas/ApiTokenResponse");
    // A contradiction outweighs any confirmation of the same element.
    const both = statuses(
      exchange({ path: "/dashboard/api-tokens/4", status: 200, responseBody: { data: token } }),
      exchange({ path: "/dashboard/api-tokens/4", status: 200, responseBody: token }),
    );
    expect(both.contradicted).toEqual(["dashboard /components/schemas/ApiTokenResponse/properties/data"]);
    expect(both.confirmed).toContain("dashboard /paths/~1dashboard~1api-tokens~1{id}/get/responses/200");
  });

  it("reports an unmarked element the answer breaks as a violation, with no value in the evidence", () => {
    const { report, contradicted } = statuses(
      exchange({ responseBody: { totalCount: "secret-value-123", data: [] } }),
    );
    expect(contradicted).toEqual([]);
    expect(report.violations).toEqual([
      {
        document: "dashboard",
        pointer: "/components/schemas/ServerList/properties/totalCount",
        exchange: "GET /si/servers → 200",
        evidence: "GET /si/servers → 200: body.totalCount is a string, not integer",
      },
    ]);
  });

  it("reports a request that breaks the contract as a violation, unless a probe sent it on purpose", () => {
    const sent = exchange({
      query: "pageSize=0",
      status: 400,
      responseBody: { ...envelope("VALIDATION_FAILED"), errors: [] },
    });
    expect(statuses(sent).report.violations).toEqual([
      {
        document: "dashboard",
        pointer: "/paths/~1si~1servers/get",
        exchange: "GET /si/servers → 400",
        evidence: "GET /si/servers sent query pageSize the contract refuses (too_small)",
      },
    ]);
    expect(statuses({ ...sent, expected: 400 }).report.violations).toEqual([]);
  });

  it("contradicts the request field a refusal names when the probe expected success", () => {
    const { contradicted } = statuses(
      exchange({
        document: "rebuild",
        method: "POST",
        path: REBUILDS,
        requestBody: { sourceUrl: "https://www.example.org/" },
        status: 400,
        responseHeaders: { ...json, ...RATE },
        responseBody: {
          ...envelope("VALIDATION_FAILED"),
          errors: [{ type: "invalid_format", path: "sourceUrl", message: "no" }],
        },
        expected: 202,
      }),
    );
    expect(contradicted).toContain("rebuild /components/schemas/RebuildRequest/properties/sourceUrl");
  });

  it("keeps a bounded number of violations whatever the traffic", () => {
    const recorder = createAssumptionRecorder();
    const server = {
      guid: "5b1c3f0e-2a4d-4c6b-8e9f-0a1b2c3d4e01",
      product: "plesk",
      address: "https://a.example",
      active: true,
    };
    // Each answer breaks another item: 300 different violations.
    for (let i = 0; i < 300; i++) {
      const data = [...Array.from({ length: i }, () => server), { ...server, active: "yes" }];
      recorder.record(exchange({ responseBody: { totalCount: i + 1, data } }));
    }
    expect(recorder.report().violations).toHaveLength(200);
  });
});

describe("the assumption recorder on any traffic", () => {
  it("never throws, and reports every element once, whatever the service answers", () => {
    const paths = fc.constantFrom(
      "/si/servers",
      "/si/servers/x",
      "/dashboard/api-tokens/1",
      "/accounts/team-guid",
      "/api/integration/partners/hostpanel/rebuilds",
      "/unknown",
      "",
    );
    const headers = fc.dictionary(
      fc.constantFrom("allow", "ratelimit-limit", "RateLimit-Reset", "www-authenticate", "x"),
      fc.string(),
    );
    fc.assert(
      fc.property(
        fc.constantFrom("dashboard", "rebuild") as fc.Arbitrary<"dashboard" | "rebuild">,
        fc.constantFrom("GET", "POST", "DELETE", "PUT", "get", "BREW"),
        paths,
        fc.stringMatching(/^[a-z]{8,12}$/).map((secret) => `email=${secret}%40example.com`),
        fc.jsonValue(),
        fc.integer({ min: 100, max: 599 }),
        headers,
        fc.jsonValue(),
        fc.option(fc.integer({ min: 100, max: 599 }), { nil: undefined }),
        (document, method, path, query, requestBody, status, responseHeaders, responseBody, expected) => {
          const recorder = createAssumptionRecorder();
          recorder.record({
            document,
            method,
            path,
            query,
            requestHeaders: {},
            requestBody,
            status,
            responseHeaders,
            responseBody,
            ...(expected === undefined ? {} : { expected }),
          });
          const report = recorder.report();
          expect(report.assumptions).toHaveLength(assumedElements.length);
          // The query may hold personal data (an email address): no evidence quotes it.
          const secret = query.slice("email=".length, query.indexOf("%40"));
          for (const entry of [...report.assumptions, ...report.violations])
            expect(entry.evidence).not.toContain(secret);
        },
      ),
      { seed: 19, numRuns: 500 },
    );
  });
});
