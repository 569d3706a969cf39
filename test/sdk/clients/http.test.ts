// `.http`: the openapi-fetch client every call of a client goes through, usable on its own
// (`{ data, error, response }`, errors as values) and extended with the user's own middleware.
import type { Middleware } from "openapi-fetch";
import { describe, expect, it } from "vitest";
import { ResponseValidationError, TimeoutError } from "../../../src/index.js";
import {
  collectingLogger,
  dashboardClient,
  faultsOffFrom,
  rebuildClient,
  recordingFetch,
  SEED_SERVERS,
  TOKEN,
  useMock,
} from "./harness.js";

const { world } = useMock();

describe("dash.http", () => {
  it("GET resolves to openapi-fetch's { data, response } with the client's credentials", async () => {
    const { fetch, requests } = recordingFetch();
    const dash = dashboardClient(TOKEN.unrestricted, { fetch });
    const { data, error, response } = await dash.http.GET("/si/servers", {
      params: { query: { pageSize: 2 } },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data?.totalCount).toBe(3);
    expect(data?.data.map((server) => server.guid)).toEqual(SEED_SERVERS.slice(0, 2).map((s) => s.guid));
    expect(requests[0]?.headers.get("authorization")).toBe(`Bearer ${TOKEN.unrestricted}`);
  });

  it("an error status is a value: error holds the body, nothing is thrown", async () => {
    const dash = dashboardClient();
    const { data, error, response } = await dash.http.GET("/dashboard/api-tokens/{id}", {
      params: { path: { id: 999_999 } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ error: { code: "NOT_FOUND" } });
  });

  it("retries a read after a 5xx, with the client's retries", async () => {
    world.setFaults({ errorRate: 1 });
    const { fetch, requests } = recordingFetch(faultsOffFrom(world, 2));
    const dash = dashboardClient(TOKEN.unrestricted, { fetch, maxRetryAfterMs: 0 });
    // The mock's 503 asks for no wait longer than maxRetryAfterMs: backoff only.
    const { data, response } = await dash.http.GET("/si/servers");
    expect(response.status).toBe(200);
    expect(data?.totalCount).toBe(3);
    expect(requests).toHaveLength(2);
  });

  it("applies the client's timeout: no answer in time rejects with TimeoutError", async () => {
    world.setFaults({ latencyMs: 5_000 });
    const dash = dashboardClient(TOKEN.unrestricted, { timeoutMs: 50, maxRetries: 0 });
    await expect(dash.http.GET("/si/servers")).rejects.toBeInstanceOf(TimeoutError);
  });

  it("checks a success body against the contract, as the resource methods do", async () => {
    const broken = async () =>
      new Response(JSON.stringify({ totalCount: 1, data: [{ guid: 7 }] }), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    const dash = dashboardClient(TOKEN.unrestricted, { fetch: broken });
    const error = await dash.http.GET("/si/servers").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ jsonPath: "$.data[0].guid" });
  });

  it("use(): the user's middleware sees .http calls and the resource methods' calls, never the credentials", async () => {
    const dash = dashboardClient();
    const seen: string[] = [];
    const middleware: Middleware = {
      onRequest({ request, schemaPath }) {
        // A real Request, never the SDK's unobserved-call draft (decisions/054).
        expect(request).toBeInstanceOf(Request);
        seen.push(`${request.method} ${schemaPath} ${request.headers.get("authorization")}`);
      },
      onResponse({ response }) {
        seen.push(String(response.status));
      },
    };
    dash.http.use(middleware);
    await dash.servers.list({ pageSize: 1 });
    await dash.apiTokens.get(999_999).catch(() => {});
    await dash.http.GET("/si/servers");
    expect(seen).toEqual([
      "GET /si/servers null",
      "200",
      "GET /dashboard/api-tokens/{id} null",
      "404",
      "GET /si/servers null",
      "200",
    ]);
  });

  it("a middleware reads the body of a resource method's response, and the method still resolves its data", async () => {
    const dash = dashboardClient();
    const bodies: unknown[] = [];
    dash.http.use({
      async onResponse({ response }) {
        bodies.push(await response.clone().json());
      },
    });
    const list = await dash.servers.list({ pageSize: 1 });
    expect(list.totalCount).toBe(3);
    expect(bodies).toEqual([list]);
  });

  it("a middleware's headers cannot replace the credentials", async () => {
    const { fetch, requests } = recordingFetch();
    const dash = dashboardClient(TOKEN.unrestricted, { fetch });
    dash.http.use({
      onRequest({ request }) {
        request.headers.set("Authorization", "Bearer someone-else");
        request.headers.set("X-Trace", "abc");
      },
    });
    await dash.servers.list();
    expect(requests[0]?.headers.get("authorization")).toBe(`Bearer ${TOKEN.unrestricted}`);
    expect(requests[0]?.headers.get("x-trace")).toBe("abc");
  });

  it("logs .http's attempts like the resource methods', secrets redacted", async () => {
    const logger = collectingLogger();
    const dash = dashboardClient(TOKEN.unrestricted, { logger });
    await dash.http.GET("/si/servers");
    expect(logger.lines).toEqual([expect.stringMatching(/^debug GET \/v1\/si\/servers attempt 1: 200 in/)]);
    expect(logger.lines.join("\n")).not.toContain(TOKEN.unrestricted);
  });
});

describe("rb.http", () => {
  it("POST submits with the partner's credentials; rb.rateLimit follows its answers", async () => {
    const { fetch, requests } = recordingFetch();
    const rb = rebuildClient(1001, { fetch });
    const { data, error, response } = await rb.http.POST("/api/integration/partners/hostpanel/rebuilds", {
      body: { sourceUrl: "https://http.example.com/" },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(202);
    expect(data?.status).toBe("running");
    expect(requests[0]?.headers.get("x-api-key")).toBe("mock-rebuild-key-1001");
    expect(requests[0]?.headers.get("x-partner-id")).toBe("1001");
    expect(rb.rateLimit?.limit).toBeGreaterThan(0);
  });

  it("a refused body is a value: a 400 with the field errors", async () => {
    const rb = rebuildClient();
    const { error, response } = await rb.http.POST("/api/integration/partners/hostpanel/rebuilds", {
      body: { sourceUrl: "not a url" },
    });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ error: { code: "VALIDATION_FAILED" } });
  });
});
