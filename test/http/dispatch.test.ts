import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_FAULTS } from "../../mocks/domain/faults.js";
import { seededRandom } from "../../mocks/domain/random.js";
import { createDispatcher, type MountedApi } from "../../mocks/http/dispatch.js";
import { createEdge } from "../../mocks/http/edge.js";
import { createEdgePolicy } from "../../mocks/http/edge-policy.js";
import { createMswHandlers } from "../../mocks/http/msw-handlers.js";
import { createNodeListener } from "../../mocks/http/node-listener.js";
import { isJsonMediaType, readJsonBody } from "../../mocks/routes/body.js";
import type { MockRequest } from "../../mocks/routes/types.js";
import { bodyLimit as MAX_BODY_BYTES } from "../../src/generated/dashboard-operations.js";

// A toy route table: the dispatcher and adapters are generic, so they are tested apart from the APIs.
const echo: MountedApi<{ faults: typeof NO_FAULTS }> = {
  baseUrl: "http://mock.test/v1",
  scope: "",
  kind: "public",
  bodyLimit: MAX_BODY_BYTES,
  routes: [
    { method: "GET", path: "/items", handle: () => ({ status: 200, body: { ok: true } }) },
    {
      method: "POST",
      path: "/items",
      handle: ({ req }) => ({ status: 201, body: { got: readJsonBody(req, MAX_BODY_BYTES) } }),
    },
    {
      method: "DELETE",
      path: "/items/{id}",
      handle: ({ params }) => ({ status: 200, body: { id: params.id } }),
    },
    {
      method: "GET",
      path: "/boom",
      handle: () => {
        throw new Error("bug");
      },
    },
  ],
};

function makeDispatcher(faults = NO_FAULTS, internal: unknown[] = []) {
  const world = { faults };
  return createDispatcher({
    world,
    apis: [echo],
    faults: () => world.faults,
    random: seededRandom(7),
    onInternalError: (e) => internal.push(e),
  });
}

function request(method: string, url: string, body?: string, contentType = "application/json"): MockRequest {
  const headers = new Headers(body === undefined ? {} : { "content-type": contentType });
  return {
    method,
    url: new URL(url),
    headers,
    body: body === undefined ? null : new TextEncoder().encode(body),
  };
}

describe("dispatcher", () => {
  it("routes static and parameterised paths", async () => {
    const dispatch = makeDispatcher();
    expect(await dispatch(request("GET", "http://mock.test/v1/items"))).toMatchObject({
      kind: "respond",
      response: { status: 200, body: { ok: true } },
    });
    expect(await dispatch(request("DELETE", "http://mock.test/v1/items/a%20b"))).toMatchObject({
      response: { status: 200, body: { id: "a b" } },
    });
  });

  it("answers 404 inside its scope and passes everything else through", async () => {
    const dispatch = makeDispatcher();
    expect(await dispatch(request("GET", "http://mock.test/v1/nope"))).toMatchObject({
      response: { status: 404, body: { error: { code: "NOT_FOUND" } } },
    });
    expect(await dispatch(request("GET", "http://mock.test/index.html"))).toEqual({ kind: "pass" });
    expect(await dispatch(request("GET", "http://other.test/v1/items"))).toEqual({ kind: "pass" });
  });

  it("answers 405 with an Allow header for a known path", async () => {
    const dispatch = makeDispatcher();
    const result = await dispatch(request("PUT", "http://mock.test/v1/items"));
    expect(result).toMatchObject({
      response: {
        status: 405,
        headers: { allow: "GET, HEAD, POST" },
        body: { error: { code: "METHOD_NOT_ALLOWED" } },
      },
    });
  });

  it("maps a bug in a route to a generic 500 and reports it", async () => {
    const internal: unknown[] = [];
    const dispatch = makeDispatcher(NO_FAULTS, internal);
    const result = await dispatch(request("GET", "http://mock.test/v1/boom"));
    expect(result).toMatchObject({ response: { status: 500, body: { error: { code: "INTERNAL" } } } });
    expect(JSON.stringify(result)).not.toContain("bug");
    expect(internal).toHaveLength(1);
  });

  it("injects 503s before the route and resets after it", async () => {
    const errors = makeDispatcher({ latencyMs: 5, errorRate: 1, resetRate: 0 });
    expect(await errors(request("GET", "http://mock.test/v1/items"))).toMatchObject({
      kind: "respond",
      delayMs: 5,
      response: { status: 503 },
    });
    const resets = makeDispatcher({ latencyMs: 0, errorRate: 0, resetRate: 1 });
    expect(await resets(request("GET", "http://mock.test/v1/items"))).toEqual({ kind: "reset", delayMs: 0 });
  });
});

describe("JSON bodies", () => {
  it("checks size, then media type, then UTF-8 and syntax", async () => {
    const dispatch = makeDispatcher();
    const big = `"${"x".repeat(MAX_BODY_BYTES)}"`;
    expect(await dispatch(request("POST", "http://mock.test/v1/items", big, "text/plain"))).toMatchObject({
      response: { status: 413, body: { error: { code: "PAYLOAD_TOO_LARGE" } } },
    });
    expect(await dispatch(request("POST", "http://mock.test/v1/items", "{}", "text/plain"))).toMatchObject({
      response: { status: 415, body: { error: { code: "UNSUPPORTED_MEDIA_TYPE" } } },
    });
    expect(await dispatch(request("POST", "http://mock.test/v1/items", "{nope"))).toMatchObject({
      response: { status: 400, body: { errors: [{ path: "", type: "invalid_format" }] } },
    });
    const invalidUtf8: MockRequest = {
      ...request("POST", "http://mock.test/v1/items", "{}"),
      body: new Uint8Array([0x7b, 0xff, 0x7d]),
    };
    expect(await dispatch(invalidUtf8)).toMatchObject({ response: { status: 400 } });
  });

  it("treats an empty body as missing, whatever its type", () => {
    expect(
      readJsonBody(request("POST", "http://mock.test/v1/items", "", "text/plain"), MAX_BODY_BYTES),
    ).toBeUndefined();
  });

  it.each([
    ["application/json", true],
    ["application/json; charset=utf-8", true],
    ["Application/JSON", true],
    ["application/merge-patch+json", true],
    ["application/+json", false],
    ["text/plain", false],
    ["json", false],
    ["", false],
  ])("media type %j is JSON: %s", (value, expected) => {
    expect(isJsonMediaType(value)).toBe(expected);
  });
});

describe("adapters", () => {
  it("node:http serves the dispatcher and drops the connection on a reset fault", async () => {
    const world = { faults: NO_FAULTS };
    const dispatch = createDispatcher({
      world,
      apis: [{ ...echo, baseUrl: "http://127.0.0.1/v1" }],
      faults: () => world.faults,
      random: seededRandom(1),
    });
    const edge = createEdge(dispatch, createEdgePolicy("127.0.0.1"));
    const server = createServer(createNodeListener(dispatch, { origin: "http://127.0.0.1", edge }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const ok = await fetch(`${base}/v1/items`, {
        method: "POST",
        body: '{"a":1}',
        headers: { "content-type": "application/json" },
      });
      expect(ok.status).toBe(201);
      expect(await ok.json()).toEqual({ got: { a: 1 } });
      const outside = await fetch(`${base}/elsewhere`);
      expect(outside.status).toBe(404);
      world.faults = { latencyMs: 0, errorRate: 0, resetRate: 1 };
      await expect(fetch(`${base}/v1/items`)).rejects.toThrow();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  describe("msw", () => {
    const world = { faults: NO_FAULTS };
    const server = setupServer(
      ...createMswHandlers(
        createDispatcher({ world, apis: [echo], faults: () => world.faults, random: seededRandom(2) }),
      ),
    );
    beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
    afterAll(() => server.close());

    it("answers the mock's paths and turns resets into network errors", async () => {
      const ok = await fetch("http://mock.test/v1/items/42", { method: "DELETE" });
      expect(await ok.json()).toEqual({ id: "42" });
      world.faults = { latencyMs: 0, errorRate: 0, resetRate: 1 };
      await expect(fetch("http://mock.test/v1/items")).rejects.toThrow();
      world.faults = NO_FAULTS;
    });
  });
});
