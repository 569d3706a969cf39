import { describe, expect, it } from "vitest";
import {
  ApiError,
  AuthenticationError,
  ConnectionError,
  createApiError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  SdkError,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
} from "../../../src/core/errors.js";
import { BASE_URL, errorBody, json, NOW, setup, TOKEN } from "./helpers.js";

const context = { label: "GET /v1/items", secrets: [TOKEN], now: NOW };

describe("createApiError", () => {
  it.each([
    [400, ValidationError, "VALIDATION_FAILED"],
    [401, AuthenticationError, "UNAUTHORIZED"],
    [403, PermissionDeniedError, "FORBIDDEN"],
    [403, PermissionDeniedError, "FEATURE_NOT_ENABLED"],
    [404, NotFoundError, "NOT_FOUND"],
    [405, ApiError, "METHOD_NOT_ALLOWED"],
    [408, ApiError, "REQUEST_TIMEOUT"],
    [409, ApiError, "CONFLICT"],
    [413, ApiError, "PAYLOAD_TOO_LARGE"],
    [415, ApiError, "UNSUPPORTED_MEDIA_TYPE"],
    [422, UnprocessableEntityError, "WEBHOOKS_NOT_CONFIGURED"],
    [429, RateLimitError, "RATE_LIMIT_EXCEEDED"],
    [500, InternalServerError, "INTERNAL"],
    [502, InternalServerError, "BAD_GATEWAY"],
    [503, InternalServerError, "UNAVAILABLE"],
    [418, ApiError, "TEAPOT"],
  ])("%i gives %o with code %s", (status, Class, code) => {
    const error = createApiError(
      json(status, errorBody(code, "What went wrong")),
      errorBody(code, "What went wrong"),
      context,
    );
    expect(error.constructor).toBe(Class);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect(error.name).toBe(Class.name);
    expect(error.status).toBe(status);
    expect(error.code).toBe(code);
    expect(error.fieldErrors).toEqual([]);
    expect(error.message).toBe(`GET /v1/items failed with ${status} ${code}: What went wrong`);
  });

  it.each([
    [400, ValidationError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, InternalServerError],
    [504, InternalServerError],
    [410, ApiError],
  ])("a body that is not the envelope still gives the class for %i", (status, Class) => {
    for (const body of ["<html>Bad gateway</html>", undefined, null, [1, 2], { error: "nope" }, 42]) {
      const error = createApiError(new Response(null, { status }), body, context);
      expect(error.constructor).toBe(Class);
      expect(error.code).toBeUndefined();
      expect(error.message).toBe(`GET /v1/items failed with ${status}`);
    }
  });

  it("uses the status text when the body has no message", () => {
    const error = createApiError(
      new Response("oops", { status: 502, statusText: "Bad Gateway" }),
      "oops",
      context,
    );
    expect(error.message).toBe("GET /v1/items failed with 502: Bad Gateway");
  });

  it("keeps field errors and lists them in the message", () => {
    const errors = [
      { type: "required", path: "name", message: "name is required" },
      { type: "invalid_type", path: "", message: "body must be an object" },
      { type: "bogus" }, // not a field error: dropped
    ];
    const error = createApiError(
      json(400, { ...errorBody("VALIDATION_FAILED", "Invalid input"), errors }),
      { ...errorBody("VALIDATION_FAILED", "Invalid input"), errors },
      context,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.fieldErrors).toEqual(errors.slice(0, 2));
    expect(error.message).toBe(
      "GET /v1/items failed with 400 VALIDATION_FAILED: Invalid input (name: name is required; body: body must be an object)",
    );
  });

  it("lists at most five field errors in the message", () => {
    const errors = Array.from({ length: 8 }, (_, i) => ({ type: "too_big", path: `f${i}`, message: "big" }));
    const error = createApiError(json(400, {}), { ...errorBody("VALIDATION_FAILED"), errors }, context);
    expect(error.fieldErrors).toHaveLength(8);
    expect(error.message).toContain("f4: big; …)");
    expect(error.message).not.toContain("f5");
  });

  it("keeps the response headers with set-cookie redacted", () => {
    const response = json(404, errorBody("NOT_FOUND"), { "set-cookie": "session=abc", "x-trace": "t1" });
    const error = createApiError(response, errorBody("NOT_FOUND"), context);
    expect(error.headers.get("x-trace")).toBe("t1");
    expect(error.headers.get("set-cookie")).toBe("[REDACTED]");
  });

  it("redacts secrets a server echoes back", () => {
    const body = {
      message: `token ${TOKEN} is unknown`,
      error: { code: "UNAUTHORIZED" },
      errors: [{ type: "invalid_value", path: TOKEN, message: `bad ${TOKEN}` }],
    };
    const error = createApiError(json(401, body, { "x-echo": `Bearer ${TOKEN}` }), body, context);
    expect(JSON.stringify([error.message, error.stack, error.fieldErrors, [...error.headers]])).not.toContain(
      TOKEN,
    );
    expect(error.message).toContain("token [REDACTED] is unknown");
  });

  describe("RateLimitError", () => {
    const make = (headers: Record<string, string>) =>
      createApiError(
        json(429, errorBody("RATE_LIMIT_EXCEEDED"), headers),
        errorBody("RATE_LIMIT_EXCEEDED"),
        context,
      ) as RateLimitError;

    it("takes Retry-After seconds, uncapped", () => {
      const error = make({ "retry-after": "3600" });
      expect(error.retryAfterMs).toBe(3_600_000);
      expect(error.resetAt).toEqual(new Date(NOW + 3_600_000));
    });

    it("takes a Retry-After HTTP-date", () => {
      const error = make({ "retry-after": new Date(NOW + 90_000).toUTCString() });
      expect(error.retryAfterMs).toBe(90_000);
      expect(error.resetAt).toEqual(new Date(NOW + 90_000));
    });

    it("falls back to RateLimit-Reset", () => {
      expect(make({ "ratelimit-reset": "17" }).retryAfterMs).toBe(17_000);
      expect(make({ "retry-after": "2", "ratelimit-reset": "17" }).retryAfterMs).toBe(2_000);
    });

    it("says 0 and now when the response gives no wait", () => {
      const error = make({ "retry-after": "soon-ish?" });
      expect(error.retryAfterMs).toBe(0);
      expect(error.resetAt).toEqual(new Date(NOW));
    });
  });
});

describe("error classes", () => {
  it("TimeoutError is a ConnectionError, neither is an ApiError", () => {
    const error = new TimeoutError("t");
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error.name).toBe("TimeoutError");
  });
});

describe("errors through the pipeline", () => {
  it("a non-JSON error body gives the class and a message from the status", async () => {
    const { list } = setup([
      () => new Response("<h1>teapot</h1>", { status: 418, headers: { "content-type": "text/html" } }),
    ]);
    const error = await list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 418, code: undefined, message: "GET /v1/items failed with 418" });
  });

  it("an empty error body gives the class", async () => {
    const { remove } = setup([() => new Response(null, { status: 404 })]);
    const error = await remove(7).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toBe("DELETE /v1/items/7 failed with 404");
  });

  it("the message has method and path but not the query string", async () => {
    const { list, requests } = setup([() => json(400, errorBody("VALIDATION_FAILED", "Bad page"))]);
    await expect(list()).rejects.toThrow("GET /v1/items failed with 400 VALIDATION_FAILED: Bad page");
    expect(requests[0]?.url).toBe(`${BASE_URL}/items?page=1`);
  });

  it("a network failure is a ConnectionError with the fetch error as cause", async () => {
    const cause = new TypeError("fetch failed", {
      cause: Object.assign(new Error("reset"), { code: "ECONNRESET" }),
    });
    const { list: failing } = setup([cause], { maxRetries: 0 });
    const error = await failing().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe("GET https://api.test/v1/items failed: ECONNRESET");
    expect((error as Error).cause).toBe(cause);
  });
});
