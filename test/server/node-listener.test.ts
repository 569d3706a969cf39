// The node adapter's own guarantee: nothing a dispatcher throws escapes it, whether the throw comes
// while the request's headers are handled (a GET) or from the body's `end` event (a POST), where no
// caller would catch it and the process would die of an uncaught exception.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Dispatcher } from "../../mocks/http/dispatch.js";
import type { Edge } from "../../mocks/http/edge.js";
import { createNodeListener } from "../../mocks/http/node-listener.js";
import { rawClient } from "../support/raw-http.js";

let server: Server;
let origin: string;
const reported: unknown[] = [];

beforeAll(async () => {
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dispatch: Dispatcher = Object.assign(
    () => {
      throw new Error("the dispatcher broke");
    },
    {
      apiAt: () => undefined,
      methodsAt: () => undefined,
      match: () => ({ bodyLimit: 1024 }),
      report: () => undefined,
      scopes: [],
      notMounted: () => {
        throw new Error("not called: the dispatcher throws first");
      },
    },
  );
  const edge: Edge = {
    screen: () => undefined,
    badTarget: () => {
      throw new Error("not reached: every target here is a URL");
    },
    corsHeaders: () => undefined,
  };
  server.on(
    "request",
    createNodeListener(dispatch, { origin, edge, onInternalError: (e) => reported.push(e) }),
  );
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

it("a dispatcher that throws synchronously is a reported 500, for a GET and for a request with a body", async () => {
  const client = rawClient(origin);
  try {
    const get = await client.send({ method: "GET", path: "/anything", headers: [], body: null });
    expect(get.status).toBe(500);
    const post = await client.send({
      method: "POST",
      path: "/anything",
      headers: [["content-type", "application/json"]],
      body: new TextEncoder().encode('{"a":1}'),
    });
    expect(post.status).toBe(500);
    expect(JSON.parse(post.text)).toMatchObject({ error: { code: "INTERNAL" } });
  } finally {
    client.close();
  }
  expect(reported.map((e) => (e as Error).message)).toEqual(["the dispatcher broke", "the dispatcher broke"]);
});
