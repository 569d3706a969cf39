// The contract check every HTTP test relies on must itself fail on responses that do not conform.
import { describe, expect, it } from "vitest";
import { assertMatchesContract, callbackViolations, contractViolations } from "./contract-validator.js";

const json = (extra: Record<string, string> = {}) =>
  new Headers({ "content-type": "application/json", ...extra });
const rateLimit = { "ratelimit-limit": "30", "ratelimit-remaining": "29", "ratelimit-reset": "3600" };
const server = {
  guid: "5b1c3f0e-2a4d-4c6b-8e9f-0a1b2c3d4e01",
  product: "plesk",
  address: "https://a.example",
  active: true,
};

describe("contract validator", () => {
  it("accepts a conforming response and finds templated paths", () => {
    expect(
      contractViolations("dashboard", {
        method: "GET",
        path: "/si/servers",
        status: 200,
        headers: json(),
        body: { totalCount: 1, data: [server] },
      }),
    ).toEqual([]);
    expect(
      contractViolations("dashboard", {
        method: "DELETE",
        path: "/si/servers/5b1c3f0e-2a4d-4c6b-8e9f-0a1b2c3d4e01",
        status: 204,
        headers: new Headers(),
        body: undefined,
      }),
    ).toEqual([]);
  });

  it("reports a body that breaks the schema, with the instance path", () => {
    const problems = contractViolations("dashboard", {
      method: "GET",
      path: "/si/servers",
      status: 200,
      headers: json(),
      body: { totalCount: 1, data: [{ ...server, active: "yes" }], extra: 1 },
    });
    expect(problems.join("\n")).toContain("/data/0/active must be boolean");
    expect(problems.join("\n")).toContain(`{"additionalProperty":"extra"}`);
  });

  it("reports an undocumented status, a missing body type and an unexpected body", () => {
    const base = {
      method: "GET",
      path: "/si/servers",
      headers: json(),
      body: { message: "x", error: { code: "INTERNAL" } },
    };
    expect(
      contractViolations("rebuild", {
        ...base,
        path: "/api/integration/partners/hostpanel/rebuilds",
        method: "POST",
        status: 418,
      }),
    ).toEqual([]);
    expect(contractViolations("dashboard", { ...base, status: 200, headers: new Headers() })).toEqual([
      'Content-Type is "", application/json expected',
    ]);
    expect(
      contractViolations("dashboard", { ...base, method: "DELETE", path: "/si/servers/x", status: 204 }),
    ).toEqual(["the contract documents no body for this status, one was sent"]);
  });

  it("requires 404 for paths outside the contract and 405 with the right Allow for missing methods", () => {
    const error = { message: "x", error: { code: "NOT_FOUND" } };
    expect(
      contractViolations("dashboard", {
        method: "GET",
        path: "/nope",
        status: 200,
        headers: json(),
        body: error,
      }),
    ).toHaveLength(1);
    expect(
      contractViolations("dashboard", {
        method: "GET",
        path: "/nope",
        status: 404,
        headers: json(),
        body: error,
      }),
    ).toEqual([]);
    const wrongMethod = {
      method: "PUT",
      path: "/si/servers",
      status: 405,
      body: { message: "x", error: { code: "METHOD_NOT_ALLOWED" } },
    };
    // HEAD is served wherever GET is, so Allow lists it too.
    expect(
      contractViolations("dashboard", { ...wrongMethod, headers: json({ allow: "GET, HEAD, POST" }) }),
    ).toEqual([]);
    expect(
      contractViolations("dashboard", { ...wrongMethod, headers: json({ allow: "GET, POST" }) }),
    ).toEqual(['Allow is "GET, POST", expected GET, HEAD, POST']);
  });

  it("checks required and typed response headers", () => {
    const rebuild = { method: "POST", path: "/api/integration/partners/hostpanel/rebuilds", status: 202 };
    const body = { requestId: "r", projectId: "p", status: "running" };
    expect(contractViolations("rebuild", { ...rebuild, headers: json(rateLimit), body })).toEqual([]);
    expect(contractViolations("rebuild", { ...rebuild, headers: json(), body })).toEqual([
      "header RateLimit-Limit is required but missing",
      "header RateLimit-Remaining is required but missing",
      "header RateLimit-Reset is required but missing",
    ]);
    expect(
      contractViolations("rebuild", {
        ...rebuild,
        headers: json({ ...rateLimit, "ratelimit-reset": "-1" }),
        body,
      }),
    ).toEqual(['header RateLimit-Reset ("-1"): (root) must be >= 0']);
  });

  it("assertMatchesContract names the request and the problems", () => {
    expect(() =>
      assertMatchesContract("rebuild", {
        method: "POST",
        path: "/api/integration/partners/hostpanel/rebuilds",
        status: 202,
        headers: json(rateLimit),
        body: { requestId: "r", projectId: "p", status: "success" },
      }),
    ).toThrow(
      /POST \/api\/integration\/partners\/hostpanel\/rebuilds → 202 does not match openapi\/rebuild\.yaml/,
    );
  });

  it("validates callback bodies against the webhook's schema", () => {
    const callback = {
      event_type: "partner_project_rebuild_completed",
      request_id: "r",
      partner_id: 1001,
      project_id: "p",
      source_url: "https://example.com",
      status: "success",
      preview_url: "https://preview.example/p",
    };
    expect(callbackViolations(callback)).toEqual([]);
    expect(callbackViolations({ ...callback, status: "failed" }).length).toBeGreaterThan(0);
  });
});
