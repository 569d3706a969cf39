// The standalone server (`startMockServer` from mocks/node.ts) over real HTTP on 127.0.0.1: what only
// it has to get right (raw bodies, paths outside the mock, real callback delivery, real time, closing)
// on top of the behaviour tests/http/adapters.test.ts shows it shares with MSW.
import { createServer, request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createClock,
  createMockWorld,
  type RequestLogEntry,
  type RunningMockServer,
  startMockServer,
} from "../../mocks/node.js";
import { FROZEN_AT, PARTNER, TOKEN } from "../support/default-seed.js";

const running: RunningMockServer[] = [];
const receivers: Array<ReturnType<typeof createServer>> = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
  await Promise.all(receivers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function start(options: Parameters<typeof startMockServer>[0] = {}): Promise<RunningMockServer> {
  const server = await startMockServer({ port: 0, clock: createClock({ frozenAt: FROZEN_AT }), ...options });
  running.push(server);
  return server;
}

/** A raw node:http request, for what fetch will not send (a GET with a body). */
function raw(url: string, method: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    // Content-Length always: node's client frames a GET body with neither it nor chunking.
    const length = body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) };
    const req = httpRequest(url, { method, headers: { ...headers, ...length } }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({ status: res.statusCode ?? 0, body: text === "" ? undefined : JSON.parse(text) });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** A webhook receiver on 127.0.0.1 answering `statuses` in turn (then 200), recording what it got. */
async function receiver(statuses: number[]) {
  const received: Array<{ headers: IncomingMessage["headers"]; body: unknown }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receivers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

const submitTo = (origin: string, sourceUrl: string) =>
  fetch(`${origin}/api/integration/partners/hostpanel/rebuilds`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-partner-id": PARTNER.ok.id,
      "x-api-key": PARTNER.ok.apiKey,
    },
    body: JSON.stringify({ sourceUrl }),
  });

describe("startMockServer", () => {
  it("binds 127.0.0.1 on a free port with port 0 and reports its base URLs", async () => {
    const server = await start();
    const { address, port } = server.server.address() as AddressInfo;
    expect(address).toBe("127.0.0.1");
    expect(port).toBeGreaterThan(0);
    expect(server.origin).toBe(`http://127.0.0.1:${port}`);
    expect(server.dashboardBaseUrl).toBe(`${server.origin}/v1`);
    expect(server.rebuildBaseUrl).toBe(server.origin);
    expect(server.world.origin).toBe(server.origin);
  });

  it("ignores a body on GET, whatever it holds", async () => {
    const server = await start();
    const answer = await raw(
      `${server.dashboardBaseUrl}/si/servers`,
      "GET",
      { authorization: `Bearer ${TOKEN.unrestricted}`, "content-type": "text/plain" },
      "not json at all",
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ totalCount: 3 });
  });

  it("answers 413 for a body far over the limit without waiting for more than it needs", async () => {
    const server = await start();
    const answer = await raw(
      `${server.dashboardBaseUrl}/si/servers`,
      "POST",
      { authorization: `Bearer ${TOKEN.unrestricted}`, "content-type": "application/json" },
      "x".repeat(8 * 1024 * 1024),
    );
    expect(answer).toMatchObject({ status: 413, body: { error: { code: "PAYLOAD_TOO_LARGE" } } });
  });

  it("answers paths outside the mock with a JSON 404 (there is nothing to pass them to)", async () => {
    const server = await start();
    for (const path of ["/", "/index.html", "/v2/si/servers", "/api/integration/other"]) {
      const response = await fetch(`${server.origin}${path}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: "NOT_FOUND" } });
    }
  });

  it("names the path with the API's base path when a request left it out (a forgotten /v1)", async () => {
    const server = await start();
    const forgotten = await fetch(`${server.origin}/si/servers`, {
      headers: { authorization: `Bearer ${TOKEN.unrestricted}` },
    });
    expect(forgotten.status).toBe(404);
    expect(await forgotten.json()).toEqual({
      message: `No resource at /si/servers; did you mean /v1/si/servers? (this API's base URL is ${server.dashboardBaseUrl})`,
      error: { code: "NOT_FOUND" },
    });
    // A path parameter and another method: still a dashboard operation's path below /v1.
    const token = await fetch(`${server.origin}/dashboard/api-tokens/7`, { method: "DELETE" });
    expect(((await token.json()) as { message: string }).message).toContain(
      "did you mean /v1/dashboard/api-tokens/7?",
    );
    // Nothing to point at: the plain 404.
    const elsewhere = await fetch(`${server.origin}/nothing/here`);
    expect(((await elsewhere.json()) as { message: string }).message).toBe("No resource at /nothing/here");
  });

  it("matches requests on the server's own origin whatever allowed Host header the client sent", async () => {
    const server = await start();
    for (const host of ["localhost:80", "LOCALHOST", "app.localhost:5173", "127.0.0.2", "[::1]:4010"]) {
      const answer = await raw(`${server.dashboardBaseUrl}/si/servers`, "GET", {
        host,
        authorization: `Bearer ${TOKEN.unrestricted}`,
      });
      expect(answer.status, host).toBe(200);
    }
  });

  it("creates exactly one rebuild for 20 parallel identical submissions over real sockets", async () => {
    const server = await start();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => submitTo(server.origin, "https://www.example.com/")),
    );
    const bodies = (await Promise.all(answers.map((a) => a.json()))) as Array<{ requestId: string }>;
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(19).fill(200), 202]);
    expect(new Set(bodies.map((b) => b.requestId)).size).toBe(1);
  });

  it("delivers callbacks over the network to a real receiver, retrying a 500", async () => {
    const server = await start();
    const { url, received } = await receiver([500]);
    server.world.upsertPartner(1001, { webhookUrl: url });
    const submitted = (await (await submitTo(server.origin, "https://www.example.com/")).json()) as {
      requestId: string;
    };
    await fetch(`${server.origin}/__mock/clock/advance`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ seconds: 15 }),
    });
    const deliveries = (await (await fetch(`${server.origin}/__mock/deliveries`)).json()) as {
      data: Array<{ attempt: number; responseStatus: number | null; url: string }>;
    };
    expect(deliveries.data.map((d) => [d.attempt, d.responseStatus, d.url])).toEqual([
      [1, 500, url],
      [2, 200, url],
    ]);
    expect(received).toHaveLength(2);
    expect(received[1]?.headers).toMatchObject({
      "content-type": "application/json",
      "x-api-key": PARTNER.ok.webhookApiKey,
    });
    expect(received[1]?.body).toMatchObject({ request_id: submitted.requestId, status: "success" });
  });

  it("records a refused connection as responseStatus null", async () => {
    const server = await start();
    const { url } = await receiver([]);
    await new Promise((resolve) => receivers.splice(0)[0]?.close(resolve));
    server.world.upsertPartner(1001, { webhookUrl: url });
    await submitTo(server.origin, "https://www.example.com/");
    await server.world.clock.advance(5000);
    expect(server.world.listDeliveries().data.map((d) => d.responseStatus)).toEqual([null]);
  });

  it("on real time, clock/advance moves ahead of the wall clock and reset brings the offset back to 0", async () => {
    const server = await startMockServer({ port: 0 });
    running.push(server);
    const nowOf = async () =>
      Date.parse(((await (await fetch(`${server.origin}/__mock/state`)).json()) as { now: string }).now);
    expect(Math.abs((await nowOf()) - Date.now())).toBeLessThan(5000);
    await submitTo(server.origin, "https://www.example.com/");
    await fetch(`${server.origin}/__mock/clock/advance`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ seconds: 3600 }),
    });
    expect((await nowOf()) - Date.now()).toBeGreaterThan(3590_000);
    expect(server.world.listDeliveries().data).toHaveLength(1);
    expect((await fetch(`${server.origin}/__mock/reset`, { method: "POST" })).status).toBe(204);
    expect(Math.abs((await nowOf()) - Date.now())).toBeLessThan(5000);
    expect(server.world.clock.offsetMs).toBe(0);
  });

  it("reports every answered request to onRequest", async () => {
    const log: RequestLogEntry[] = [];
    const server = await start({ onRequest: (entry) => log.push(entry) });
    await fetch(`${server.dashboardBaseUrl}/si/servers`);
    await fetch(`${server.origin}/__mock/state`);
    expect(log.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      { method: "GET", path: "/v1/si/servers", status: 401 },
      { method: "GET", path: "/__mock/state", status: 200 },
    ]);
  });

  it("close() resolves with keep-alive connections open and frees the port", async () => {
    const server = await startMockServer({ port: 0, clock: createClock({ frozenAt: FROZEN_AT }) });
    const { port } = server.server.address() as AddressInfo;
    await fetch(`${server.origin}/__mock/state`, { keepalive: true });
    await server.close();
    await expect(fetch(`${server.origin}/__mock/state`)).rejects.toThrow();
    const again = await startMockServer({ port, clock: createClock({ frozenAt: FROZEN_AT }) });
    running.push(again);
    expect(again.origin).toBe(server.origin);
  });

  it("a bad seed rejects startMockServer and leaves the port free", async () => {
    const probe = await startMockServer({ port: 0 });
    const { port } = probe.server.address() as AddressInfo;
    await probe.close();
    await expect(startMockServer({ port, seed: { rebuild: { partners: [{ id: 0 }] } } })).rejects.toThrow(
      /partners\.0\.id/,
    );
    const again = await startMockServer({ port, clock: createClock({ frozenAt: FROZEN_AT }) });
    running.push(again);
    expect((again.server.address() as AddressInfo).port).toBe(port);
  });

  it("serves a world of its own origin, refuses another, and leaves a world it did not make running", async () => {
    const probe = await startMockServer({ port: 0 });
    const { port } = probe.server.address() as AddressInfo;
    await probe.close();
    const clock = createClock({ frozenAt: FROZEN_AT });
    const world = createMockWorld({ clock, origin: `http://127.0.0.1:${port + 1 === 65536 ? 1 : port + 1}` });
    await expect(startMockServer({ port, world })).rejects.toThrow(
      new TypeError(
        `startMockServer: the world's origin is ${world.origin}, this server's http://127.0.0.1:${port}`,
      ),
    );
    const own = createMockWorld({
      clock: createClock({ frozenAt: FROZEN_AT }),
      origin: `http://127.0.0.1:${port}`,
    });
    const dispose = vi.spyOn(own.clock, "dispose");
    const seen: string[] = [];
    const server = await startMockServer({ port, world: own, observe: (o) => seen.push(o.kind) });
    expect((await fetch(`${server.origin}/__mock/state`)).status).toBe(200);
    const submitted = await fetch(`${server.rebuildBaseUrl}/api/integration/partners/hostpanel/rebuilds`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-partner-id": "1001", "x-api-key": PARTNER.ok.apiKey },
      body: JSON.stringify({ sourceUrl: "https://www.example.com/" }),
    });
    const { requestId } = (await submitted.json()) as { requestId: string };
    await server.close();
    // Its clock still wakes for due work: the world is the caller's to end.
    expect(dispose).not.toHaveBeenCalled();
    // And the server no longer watches it: the callback of a rebuild completed afterwards is not reported.
    await own.completeRebuild(requestId);
    await own.clock.settle();
    expect(own.listDeliveries().data).toHaveLength(1);
    expect(seen).toEqual(["request", "request"]);
  });

  it("refuses a port already in use with EADDRINUSE", async () => {
    const first = await start();
    const { port } = first.server.address() as AddressInfo;
    await expect(startMockServer({ port })).rejects.toMatchObject({ code: "EADDRINUSE" });
  });
});
