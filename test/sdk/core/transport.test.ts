import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { APIPromise } from "../../../src/core/api-promise.js";
import { ApiError, ConnectionError, SdkError } from "../../../src/core/errors.js";
import type { Logger } from "../../../src/core/options.js";
import { SDK_USER_AGENT, VERSION } from "../../../src/core/version.js";
import { BASE_URL, errorBody, json, netError, setup, TOKEN } from "./helpers.js";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const ok = () => json(200, { totalCount: 1, data: [{ id: 1, name: "a" }] });

function fakeLogger() {
  return { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() } satisfies Logger;
}

describe("results", () => {
  it("resolves to the body's data; withResponse adds the Response", async () => {
    const { list } = setup([ok, ok]);
    const call = list();
    expect(call).toBeInstanceOf(APIPromise);
    expect(call).toBeInstanceOf(Promise);
    await expect(call).resolves.toEqual({ totalCount: 1, data: [{ id: 1, name: "a" }] });
    const { data, response } = await list().withResponse();
    expect(data).toEqual({ totalCount: 1, data: [{ id: 1, name: "a" }] });
    expect(response.status).toBe(200);
  });

  it("map unwraps the data, in both forms", async () => {
    const created = () => json(201, { data: { id: 9, name: "x", token: "t" } });
    const { create } = setup([created, created]);
    const item: { id: number; token: string } = await create();
    expect(item).toEqual({ id: 9, name: "x", token: "t" });
    const { data, response } = await create().withResponse();
    expect(data.id).toBe(9);
    expect(response.status).toBe(201);
  });

  it("a 204 resolves to undefined", async () => {
    const { remove, requests } = setup([() => new Response(null, { status: 204 })]);
    await expect(remove(3)).resolves.toBeUndefined();
    expect(requests[0]?.method).toBe("DELETE");
    expect(requests[0]?.url).toBe(`${BASE_URL}/items/3`);
  });

  it("then, catch and finally all see the same outcome", async () => {
    const { list } = setup([() => json(404, errorBody("NOT_FOUND"))]);
    const call = list();
    const onFinally = vi.fn();
    await expect(call.finally(onFinally)).rejects.toBeInstanceOf(ApiError);
    await expect(call.catch((e: unknown) => (e as ApiError).status)).resolves.toBe(404);
    await expect(call.then(undefined, (e: unknown) => (e as ApiError).code)).resolves.toBe("NOT_FOUND");
    expect(onFinally).toHaveBeenCalledOnce();
  });

  it("using only withResponse() leaves no unhandled rejection", async () => {
    const { list } = setup([() => json(500, errorBody("INTERNAL"))], { maxRetries: 0 });
    await expect(list().withResponse()).rejects.toBeInstanceOf(ApiError);
  });

  it("a 2xx body that is not JSON is an SdkError that does not quote it", async () => {
    const truncated = () =>
      new Response(`{"data":{"id":1,"token":"${TOKEN}`, {
        status: 201,
        headers: { "content-type": "application/json" },
      });
    const { create } = setup([truncated]);
    const error = await create().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe("POST /v1/items answered 201 with a body that is not valid JSON");
    expect((error as Error).cause).toBeUndefined();
  });

  it("a run that throws before sending rejects with its own error and leaves no timer behind", async () => {
    vi.useFakeTimers();
    try {
      const { t, fetch } = setup([ok]);
      const mistake = new TypeError("guid must be a GUID");
      const call = t("safe", undefined, () => {
        throw mistake;
      });
      await expect(call).rejects.toBe(mistake);
      expect(fetch).not.toHaveBeenCalled();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("falls back to globalThis.fetch, looked up at each request", async () => {
    const { t } = setup([], { fetch: undefined as never });
    const global = vi.fn(async () => ok());
    vi.stubGlobal("fetch", global);
    await t("safe", undefined, (http, init) => http.GET("/items", init));
    expect(global).toHaveBeenCalledOnce();
  });

  it("does not follow redirects", async () => {
    const { list, requests } = setup([
      () => new Response(null, { status: 302, headers: { location: "https://evil.test/" } }),
    ]);
    await expect(list()).rejects.toMatchObject({ status: 302 });
    expect(requests[0]?.redirect).toBe("manual");
  });
});

describe("headers", () => {
  it("sends the auth headers, and the headers option cannot override them", async () => {
    const { list, requests } = setup([ok], {
      authHeaders: { "X-Partner-Id": "42", "X-API-Key": "key_live_1234567890" },
      secrets: ["key_live_1234567890"],
      headers: { "x-api-key": "other", "X-PARTNER-ID": "7", "X-Trace": "abc" },
    });
    await list();
    const headers = requests[0]?.headers;
    expect(headers?.get("x-api-key")).toBe("key_live_1234567890");
    expect(headers?.get("x-partner-id")).toBe("42");
    expect(headers?.get("x-trace")).toBe("abc");
  });

  it("Authorization cannot be overridden whatever its case", async () => {
    const { list, requests } = setup([ok], { headers: { AUTHORIZATION: "Bearer mine" } });
    await list();
    expect(requests[0]?.headers.get("authorization")).toBe(`Bearer ${TOKEN}`);
  });

  it("puts the SDK's User-Agent first and appends userAgent", async () => {
    expect(SDK_USER_AGENT).toBe("rebuild-dashboard-kit/0.1.0");
    const plain = setup([ok]);
    await plain.list();
    expect(plain.requests[0]?.headers.get("user-agent")).toBe(SDK_USER_AGENT);
    const custom = setup([ok], { userAgent: "my-app/2.0" });
    await custom.list();
    expect(custom.requests[0]?.headers.get("user-agent")).toBe(`${SDK_USER_AGENT} my-app/2.0`);
  });

  it("sends no User-Agent in a browser", async () => {
    vi.stubGlobal("navigator", { userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0" });
    const { list, requests } = setup([ok], { userAgent: "my-app/2.0" });
    await list();
    expect(requests[0]?.headers.get("user-agent")).toBeNull();
  });

  it("sends JSON bodies with a content type", async () => {
    const { create, requests } = setup([() => json(201, { data: { id: 1, name: "x", token: "t" } })]);
    await create();
    expect(requests[0]?.headers.get("content-type")).toBe("application/json");
    await expect(requests[0]?.json()).resolves.toEqual({ name: "x" });
  });

  it("an invalid credential is refused without quoting it", () => {
    const secret = "line\nbreak-secret-0123456789";
    const attempt = () =>
      setup([], { authHeaders: { Authorization: `Bearer ${secret}` }, secrets: [secret] });
    expect(attempt).toThrow(TypeError);
    try {
      attempt();
    } catch (error) {
      expect(String((error as Error).message)).not.toContain("break-secret");
    }
  });

  it("VERSION matches package.json", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    expect(VERSION).toBe(pkg.version);
  });
});

describe("logging", () => {
  it("a debug line per attempt and an info line per retry, secrets redacted", async () => {
    const logger = fakeLogger();
    const { list } = setup([() => json(503, errorBody("UNAVAILABLE", "busy")), netError("ECONNRESET"), ok], {
      logger,
      headers: { Cookie: "session=s3cr3t", "X-Trace": "abc" },
    });
    await list();
    expect(logger.debug.mock.calls.map((call) => call[0])).toEqual([
      "GET /v1/items attempt 1: 503 in 0 ms",
      "GET /v1/items attempt 2: failed (ECONNRESET) in 0 ms",
      "GET /v1/items attempt 3: 200 in 0 ms",
    ]);
    expect(logger.debug.mock.calls[0]?.[1]).toEqual({
      headers: {
        authorization: "[REDACTED]",
        cookie: "[REDACTED]",
        "user-agent": SDK_USER_AGENT,
        "x-trace": "abc",
      },
    });
    expect(logger.info.mock.calls.map((call) => call[0])).toEqual([
      "GET /v1/items failed with 503 UNAVAILABLE: busy; retry 1 of 2 in 250 ms",
      "GET https://api.test/v1/items failed: ECONNRESET; retry 2 of 2 in 500 ms",
    ]);
    expect(logger.warn).not.toHaveBeenCalled();
    expect(logger.error).not.toHaveBeenCalled();
    const everything = JSON.stringify(Object.values(logger).map((fn) => fn.mock.calls));
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain("s3cr3t");
  });

  it("never logs bodies (a created token's secret stays out of the log)", async () => {
    const logger = fakeLogger();
    const secretToken = "new_token_value_6b1f0e9d2c8a4735";
    const { create } = setup([() => json(201, { data: { id: 1, name: "x", token: secretToken } })], {
      logger,
    });
    await create();
    expect(JSON.stringify(logger.debug.mock.calls)).not.toContain(secretToken);
  });

  it("redacts custom auth header names by name", async () => {
    const logger = fakeLogger();
    const { list } = setup([ok], {
      logger,
      authHeaders: { "X-Partner-Id": "42", "X-API-Key": "k_abcdefghijklmnop" },
      secrets: ["k_abcdefghijklmnop"],
    });
    await list();
    const details = logger.debug.mock.calls[0]?.[1] as { headers: Record<string, string> };
    expect(details.headers["x-partner-id"]).toBeDefined();
    expect(details.headers["x-api-key"]).toBe("[REDACTED]");
    expect(details.headers["x-partner-id"]).toBe("[REDACTED]");
  });

  it("logs nothing, anywhere, without a logger", async () => {
    const spies = (["log", "debug", "info", "warn", "error"] as const).map((m) => vi.spyOn(console, m));
    const { list } = setup([() => json(500, errorBody("INTERNAL")), ok]);
    await list();
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });
});
