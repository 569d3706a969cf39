// contract-decisions, "Every request is checked in this order; the first failure answers": unknown
// path 404 → wrong method 405 → authentication 401 → may this caller use the operation 403 →
// (rebuild) rate limit 429 → body over 1 MiB 413 → media type 415 → validation 400 → the
// operation's own rules. Each test sends a request that fails several checks at once.
import { describe, expect, it } from "vitest";
import { PARTNER, TOKEN } from "../support/default-seed.js";
import { bearer, dashboardAs, REBUILDS_PATH, rebuildHeaders, submitRebuild } from "./support/client.js";
import { expectError, NO_RATE_LIMIT_HEADERS, rateLimitOf } from "./support/expectations.js";
import { useMswMock } from "./support/harness.js";

const mock = useMswMock();
const { call, control } = mock;

/** One byte over the 1 MiB limit. */
const OVERSIZED = "x".repeat(1024 * 1024 + 1);

describe("check order, dashboard API", () => {
  it("unknown path 404 comes first: no token, wrong method and a bad body still get 404", async () => {
    expectError(await call({ path: "/v1/nope" }), 404, "NOT_FOUND");
    expectError(
      await call({ method: "PATCH", path: "/v1/si/servers/x/y", body: OVERSIZED }),
      404,
      "NOT_FOUND",
    );
    expectError(await call({ path: "/v1/si/servers/" }), 404, "NOT_FOUND");
  });

  it("wrong method 405, with Allow, comes before authentication", async () => {
    const servers = await call({ method: "PATCH", path: "/v1/si/servers", body: OVERSIZED });
    expectError(servers, 405, "METHOD_NOT_ALLOWED");
    expect(servers.headers.get("allow")).toBe("GET, HEAD, POST");
    // The path template matches whatever the id is, so a malformed id does not turn 405 into 404.
    const token = await call({ method: "PUT", path: "/v1/dashboard/api-tokens/not-an-id" });
    expectError(token, 405, "METHOD_NOT_ALLOWED");
    expect(token.headers.get("allow")).toBe("DELETE, GET, HEAD");
    const teamGuid = await call({ method: "POST", path: "/v1/accounts/team-guid", json: {} });
    expect(teamGuid.headers.get("allow")).toBe("GET, HEAD");
  });

  it.each([
    ["no Authorization header", {}],
    ["a malformed header", { authorization: `Token ${TOKEN.unrestricted}` }],
    ["a Bearer without a token", { authorization: "Bearer " }],
    ["an unknown token", bearer("mock-token-nobody")],
    ["an expired token", bearer(TOKEN.expired)],
  ])("authentication 401 comes before claims, size, media type and validation: %s", async (_, headers) => {
    const answer = await call({
      method: "POST",
      path: "/v1/si/servers",
      headers: { ...headers, "content-type": "text/plain" },
      body: OVERSIZED,
    });
    expectError(answer, 401, "UNAUTHORIZED");
  });

  it("claims 403 comes before body size: a token with claims may not connect servers", async () => {
    const answer = await call({
      method: "POST",
      path: "/v1/si/servers",
      headers: { ...bearer(TOKEN.manage), "content-type": "text/plain" },
      body: OVERSIZED,
    });
    expectError(answer, 403, "FORBIDDEN");
  });

  it("body size 413 comes before media type", async () => {
    const answer = await call({
      method: "POST",
      path: "/v1/si/servers",
      headers: { ...bearer(TOKEN.unrestricted), "content-type": "text/plain" },
      body: OVERSIZED,
    });
    expectError(answer, 413, "PAYLOAD_TOO_LARGE");
  });

  it("media type 415 comes before JSON syntax and validation", async () => {
    const answer = await call({
      method: "POST",
      path: "/v1/si/servers",
      headers: { ...bearer(TOKEN.unrestricted), "content-type": "text/plain" },
      body: "{not json",
    });
    expectError(answer, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("validation 400 comes before claim breadth (rule order: 401, 403 rules 2–4, 400, 403 rule 5)", async () => {
    const asManager = dashboardAs(call, TOKEN.manage);
    // Invalid (empty name) and too broad (mcp is not covered by manage-api-tokens): 400 wins.
    expectError(
      await asManager("POST", "/dashboard/api-tokens", { name: " ", claims: [{ name: "mcp" }] }),
      400,
      "VALIDATION_FAILED",
    );
    // The same breadth with a valid body: 403.
    expectError(
      await asManager("POST", "/dashboard/api-tokens", { name: "x", claims: [{ name: "mcp" }] }),
      403,
      "FORBIDDEN",
    );
  });

  it("a read-only claim's 403 comes before validation", async () => {
    const answer = await dashboardAs(call, TOKEN.manageReadonly)("POST", "/dashboard/api-tokens", {
      bogus: 1,
    });
    expectError(answer, 403, "FORBIDDEN");
  });

  it("unknown id 404 comes after the claims check", async () => {
    expectError(await dashboardAs(call, TOKEN.mcp)("DELETE", "/dashboard/api-tokens/999"), 403, "FORBIDDEN");
    expectError(
      await dashboardAs(call, TOKEN.manageReadonly)("DELETE", "/dashboard/api-tokens/999"),
      403,
      "FORBIDDEN",
    );
    expectError(
      await dashboardAs(call, TOKEN.manage)("DELETE", "/dashboard/api-tokens/999"),
      404,
      "NOT_FOUND",
    );
    expectError(await dashboardAs(call, TOKEN.manage)("DELETE", `/si/servers/not-a-guid`), 403, "FORBIDDEN");
  });

  it("query validation 400 comes after authentication and claims", async () => {
    expectError(await dashboardAs(call, TOKEN.expired)("GET", "/si/servers?pageSize=0"), 401, "UNAUTHORIZED");
    expectError(await dashboardAs(call, TOKEN.manage)("GET", "/si/servers?pageSize=0"), 403, "FORBIDDEN");
    expectError(
      await dashboardAs(call, TOKEN.unrestricted)("GET", "/si/servers?pageSize=0"),
      400,
      "VALIDATION_FAILED",
    );
  });
});

describe("check order, rebuild API", () => {
  it("unknown path 404 and wrong method 405 (Allow: POST) come before the credential checks", async () => {
    const unknown = await call({ method: "POST", path: `${REBUILDS_PATH}/extra`, body: OVERSIZED });
    expectError(unknown, 404, "NOT_FOUND");
    expect(rateLimitOf(unknown)).toEqual(NO_RATE_LIMIT_HEADERS);
    const wrongMethod = await call({ method: "GET", path: REBUILDS_PATH });
    expectError(wrongMethod, 405, "METHOD_NOT_ALLOWED");
    expect(wrongMethod.headers.get("allow")).toBe("POST");
  });

  it("authentication 401 comes before the feature check", async () => {
    const answer = await call({
      method: "POST",
      path: REBUILDS_PATH,
      headers: {
        ...rebuildHeaders({ partnerId: PARTNER.disabled.id, apiKey: "wrong" }),
        "content-type": "text/plain",
      },
      body: OVERSIZED,
    });
    expectError(answer, 401, "UNAUTHORIZED");
  });

  it("feature 403 comes before the rate limit, size and validation, and carries no RateLimit headers", async () => {
    const answer = await call({
      method: "POST",
      path: REBUILDS_PATH,
      headers: {
        ...rebuildHeaders({ partnerId: PARTNER.disabled.id, apiKey: PARTNER.disabled.apiKey }),
        "content-type": "text/plain",
      },
      body: OVERSIZED,
    });
    expectError(answer, 403, "FEATURE_NOT_ENABLED");
    expect(rateLimitOf(answer)).toEqual(NO_RATE_LIMIT_HEADERS);
  });

  it("rate limit 429 comes before size, media type and validation", async () => {
    await control.putPartner(PARTNER.ok.id, { rateLimitPerHour: 1 });
    expect((await submitRebuild(call, { sourceUrl: "https://www.example.com/" })).status).toBe(202);
    const answer = await call({
      method: "POST",
      path: REBUILDS_PATH,
      headers: { ...rebuildHeaders(), "content-type": "text/plain" },
      body: OVERSIZED,
    });
    expectError(answer, 429, "RATE_LIMIT_EXCEEDED");
  });

  it("413 comes before 415, which comes before 400; all carry the RateLimit headers", async () => {
    const tooLarge = await call({
      method: "POST",
      path: REBUILDS_PATH,
      headers: { ...rebuildHeaders(), "content-type": "text/plain" },
      body: OVERSIZED,
    });
    expectError(tooLarge, 413, "PAYLOAD_TOO_LARGE");
    expect(rateLimitOf(tooLarge)).toEqual({ limit: 30, remaining: 29, reset: 3600 });
    const wrongType = await call({
      method: "POST",
      path: REBUILDS_PATH,
      headers: { ...rebuildHeaders(), "content-type": "text/plain" },
      body: "{nope",
    });
    expectError(wrongType, 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(rateLimitOf(wrongType).remaining).toBe(28);
  });

  it("validation 400 comes before webhooks-not-configured 422, which comes before idempotency", async () => {
    const noWebhooks = { partnerId: PARTNER.noWebhooks.id, apiKey: PARTNER.noWebhooks.apiKey };
    expectError(
      await submitRebuild(call, { sourceUrl: "http://localhost/" }, noWebhooks),
      400,
      "VALIDATION_FAILED",
    );
    expectError(
      await submitRebuild(call, { sourceUrl: "https://www.example.com/" }, noWebhooks),
      422,
      "WEBHOOKS_NOT_CONFIGURED",
    );
    // An existing rebuild is not returned once webhooks are gone: 422 comes first.
    expect((await submitRebuild(call, { sourceUrl: "https://www.example.com/" })).status).toBe(202);
    await control.putPartner(PARTNER.ok.id, { webhookUrl: null });
    expectError(
      await submitRebuild(call, { sourceUrl: "https://www.example.com/" }),
      422,
      "WEBHOOKS_NOT_CONFIGURED",
    );
  });
});
