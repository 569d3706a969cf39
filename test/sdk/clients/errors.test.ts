import { describe, expect, it } from "vitest";
import {
  type ApiError,
  AuthenticationError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  SdkError,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
} from "../../../src/index.js";
import {
  closedPort,
  control,
  dashboardClient,
  rebuildClient,
  recordingFetch,
  rejection,
  setFaults,
  TOKEN,
  useMock,
} from "./harness.js";

useMock();

describe("ValidationError (400): field errors from the answer", () => {
  it("a dashboard body", async () => {
    const error = await rejection(
      dashboardClient().servers.connect([{ address: "ftp://x.example.com", product: "" }]),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 400, code: "VALIDATION_FAILED" });
    const { fieldErrors, message } = error as ValidationError;
    expect(fieldErrors.map((e) => e.path).sort()).toEqual(["servers.0.address", "servers.0.product"]);
    expect(fieldErrors.every((e) => e.type && e.message)).toBe(true);
    expect(message).toMatch(/^POST \/v1\/si\/servers failed with 400 VALIDATION_FAILED/);
    expect(message).toContain("servers.0.address");
  });

  it("a dashboard query parameter", async () => {
    const error = await rejection(dashboardClient().servers.list({ pageSize: 101 }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fieldErrors).toEqual([
      { type: expect.any(String), path: "pageSize", message: expect.any(String) },
    ]);
  });

  it("a claim attribute of a token", async () => {
    const error = await rejection(
      dashboardClient().apiTokens.create({
        name: "x",
        claims: [{ name: "mcp", attributes: { panelUser: "admin" } }],
      }),
    );
    expect((error as ValidationError).fieldErrors).toEqual([
      { type: "required", path: "claims.0.attributes.serverGuid", message: expect.any(String) },
    ]);
  });

  it("a rebuild body", async () => {
    const error = await rejection(rebuildClient().submit({ sourceUrl: "http://localhost:8080/" }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fieldErrors).toEqual([
      { type: expect.any(String), path: "sourceUrl", message: expect.any(String) },
    ]);
    // Every answer after the feature check carries the rate-limit headers, errors included.
    expect((error as ApiError).headers.get("ratelimit-remaining")).toBe("29");
  });
});

describe("AuthenticationError (401)", () => {
  it.each([
    ["an unknown token", "not-a-token"],
    ["an expired token", TOKEN.expired],
  ])("the dashboard with %s", async (_, token) => {
    const error = await rejection(dashboardClient(token).servers.list());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
  });

  it.each([
    ["a wrong API key", 1001, "wrong-key"],
    ["the webhook key in place of the rebuild key", 1001, "mock-webhook-key-1001"],
    ["an unknown partner", 4242, "mock-rebuild-key-1001"],
  ])("a rebuild with %s", async (_, partnerId, apiKey) => {
    const error = await rejection(
      rebuildClient(partnerId, { apiKey }).submit({ sourceUrl: "https://a.example.com/" }),
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
  });
});

describe("PermissionDeniedError (403)", () => {
  it("FORBIDDEN: a token with claims on the server inventory", async () => {
    const error = await rejection(dashboardClient(TOKEN.mcp).servers.list());
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, code: "FORBIDDEN" });
  });

  it("FORBIDDEN: a read-only token manager creating a token", async () => {
    const error = await rejection(
      dashboardClient(TOKEN.manageReadonly).apiTokens.create({ name: "x", claims: [] }),
    );
    expect(error).toMatchObject({ status: 403, code: "FORBIDDEN" });
  });

  it("FEATURE_NOT_ENABLED: partner 1002", async () => {
    const error = await rejection(rebuildClient(1002).submit({ sourceUrl: "https://a.example.com/" }));
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, code: "FEATURE_NOT_ENABLED" });
  });
});

describe("NotFoundError (404)", () => {
  it.each([
    ["an unknown token id", () => dashboardClient().apiTokens.get(9999)],
    ["an unknown token id to delete", () => dashboardClient().apiTokens.delete(9999)],
    ["an unknown server", () => dashboardClient().servers.delete("00000000-0000-4000-8000-000000000000")],
    ["an unknown email", () => dashboardClient().accounts.getTeamGuid("nobody@example.com")],
  ])("%s", async (_, call) => {
    const error = await rejection(call());
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: "NOT_FOUND" });
  });
});

it("UnprocessableEntityError (422): partner 1003 has no webhooks", async () => {
  const error = await rejection(rebuildClient(1003).submit({ sourceUrl: "https://a.example.com/" }));
  expect(error).toBeInstanceOf(UnprocessableEntityError);
  expect(error).toMatchObject({ status: 422, code: "WEBHOOKS_NOT_CONFIGURED" });
});

it("RateLimitError (429): the 31st submission in an hour, with retryAfterMs and resetAt", async () => {
  const { fetch, requests } = recordingFetch();
  const client = rebuildClient(1001, { fetch, maxRetryAfterMs: 1000 });
  for (let i = 0; i < 30; i++) await client.submit({ sourceUrl: `https://site${i}.example.com/` });
  const before = Date.now();
  const error = await rejection(client.submit({ sourceUrl: "https://one-too-many.example.com/" }));
  expect(error).toBeInstanceOf(RateLimitError);
  const { retryAfterMs, resetAt, status, code, headers } = error as RateLimitError;
  expect({ status, code, retryAfterMs }).toEqual({
    status: 429,
    code: "RATE_LIMIT_EXCEEDED",
    retryAfterMs: 3_600_000,
  });
  expect(resetAt.getTime()).toBeGreaterThanOrEqual(before + 3_600_000);
  expect(resetAt.getTime()).toBeLessThanOrEqual(Date.now() + 3_600_000);
  expect(headers.get("retry-after")).toBe("3600");
  expect(headers.get("ratelimit-remaining")).toBe("0");
  // A wait longer than maxRetryAfterMs surfaces at once, without a retry.
  expect(requests).toHaveLength(31);
});

it("InternalServerError (5xx): an injected 503", async () => {
  await setFaults({ errorRate: 1 });
  const error = await rejection(dashboardClient(TOKEN.unrestricted, { maxRetries: 0 }).servers.list());
  expect(error).toBeInstanceOf(InternalServerError);
  expect(error).toMatchObject({ status: 503, code: "INTERNAL" });
});

describe("ConnectionError: no answer", () => {
  it("the connection is reset", async () => {
    await setFaults({ resetRate: 1 });
    const error = await rejection(dashboardClient(TOKEN.unrestricted, { maxRetries: 0 }).servers.list());
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toMatch(/^GET http:\/\/127\.0\.0\.1:4010\/v1\/si\/servers failed: /);
  });

  it("nothing listens on the port", async () => {
    const port = await closedPort();
    const client = rebuildClient(1001, { baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 });
    const error = await rejection(client.submit({ sourceUrl: "https://a.example.com/" }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain("ECONNREFUSED");
  });
});

it("TimeoutError: the answer takes longer than timeoutMs", async () => {
  await setFaults({ latencyMs: 150 });
  const error = await rejection(
    dashboardClient(TOKEN.unrestricted, { maxRetries: 0 }).apiTokens.get(1, { timeoutMs: 30 }),
  );
  expect(error).toBeInstanceOf(TimeoutError);
  expect(error).toBeInstanceOf(ConnectionError);
  expect((error as Error).message).toBe(
    "GET http://127.0.0.1:4010/v1/dashboard/api-tokens/1 timed out after 30 ms",
  );
});

it("every error is an SdkError, and the control API's faults never touch it", async () => {
  const errors = await Promise.all([
    rejection(dashboardClient("nope").servers.list()),
    rejection(rebuildClient(1002).submit({ sourceUrl: "https://a.example.com/" })),
  ]);
  for (const error of errors) expect(error).toBeInstanceOf(SdkError);
  await setFaults({ errorRate: 1 });
  await expect(control("GET", "/faults")).resolves.toMatchObject({ errorRate: 1 });
});
