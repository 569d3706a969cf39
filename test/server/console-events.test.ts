// The console's page and live events on the standalone server, over real sockets (issue 14, point 1;
// decisions/032): a change produces an event, a burst is coalesced, a client that leaves takes the
// world's listener with it, the cap refuses the next stream with a JSON error, heartbeats keep idle
// streams open, and both are refused to Hosts and origins the edge does not allow.
import { createHash } from "node:crypto";
import { type ClientRequest, type IncomingMessage, request } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { createMockDispatcher } from "../../mocks/http/mock-dispatcher.js";
import {
  createClock,
  createMockWorld,
  type MockServerOptions,
  type MockWorld,
  startMockServer,
} from "../../mocks/node.js";
import { FROZEN_AT, PARTNER } from "../support/default-seed.js";
import { freePort } from "../support/free-port.js";

const REBUILDS = "/api/integration/partners/hostpanel/rebuilds";
const PARTNER_HEADERS = {
  "x-partner-id": PARTNER.ok.id,
  "x-api-key": PARTNER.ok.apiKey,
  "content-type": "application/json",
};

interface Stream {
  readonly answer: IncomingMessage;
  /** Every `change` event's data so far. */
  readonly events: Array<{ changed: string[] }>;
  /** Everything received, comments included. */
  text(): string;
  /** Resolves once `count` change events arrived. */
  waitFor(count: number): Promise<void>;
  close(): void;
}

const opened: ClientRequest[] = [];
afterEach(() => {
  for (const req of opened.splice(0)) req.destroy();
});

/** Opens `GET /__mock/events` and collects what arrives; resolves on the answer's head. */
function openStream(origin: string, headers: Record<string, string> = {}, method = "GET"): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}/__mock/events`, { method, headers }, (answer) => {
      let text = "";
      const events: Array<{ changed: string[] }> = [];
      const waiters: Array<{ count: number; resolve: () => void }> = [];
      answer.setEncoding("utf8");
      answer.on("data", (chunk: string) => {
        text += chunk;
        events.splice(0, events.length);
        for (const match of text.matchAll(/^event: change\ndata: (.*)\n\n/gm)) {
          events.push(JSON.parse(match[1] ?? "") as { changed: string[] });
        }
        for (const waiter of [...waiters]) {
          if (events.length >= waiter.count) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve();
          }
        }
      });
      answer.on("error", () => {});
      resolve({
        answer,
        events,
        text: () => text,
        waitFor: (count) =>
          events.length >= count
            ? Promise.resolve()
            : new Promise((done) => waiters.push({ count, resolve: done })),
        close: () => req.destroy(),
      });
    });
    req.on("error", reject);
    opened.push(req);
    req.end();
  });
}

async function startWith(options: MockServerOptions = {}) {
  const mock = await startMockServer({ port: 0, clock: createClock({ frozenAt: FROZEN_AT }), ...options });
  onTestFinished(() => mock.close());
  return mock;
}

/** A world whose change listeners are counted (the server subscribes through `onChange`). */
function countedWorld(origin: string): { world: MockWorld; listeners: () => number } {
  const world = createMockWorld({ clock: createClock({ frozenAt: FROZEN_AT }), origin });
  const subscribe = world.onChange.bind(world);
  let active = 0;
  world.onChange = (listener) => {
    active++;
    const stop = subscribe(listener);
    let stopped = false;
    return () => {
      if (!stopped) active--;
      stopped = true;
      stop();
    };
  };
  return { world, listeners: () => active };
}

const submit = (origin: string, sourceUrl: string) =>
  fetch(`${origin}${REBUILDS}`, {
    method: "POST",
    headers: PARTNER_HEADERS,
    body: JSON.stringify({ sourceUrl }),
  });

describe("GET /__mock/events", () => {
  it("is an event stream that first says to read everything, then sends an event after a change", async () => {
    const mock = await startWith();
    const stream = await openStream(mock.origin);
    expect(stream.answer.statusCode).toBe(200);
    expect(stream.answer.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(stream.answer.headers["cache-control"]).toBe("no-store");
    await stream.waitFor(1);
    expect(stream.text()).toMatch(/^retry: \d+\n\n/);
    expect(stream.events).toEqual([{ changed: ["/state", "/requests"] }]);

    // A control call changes the state only.
    await fetch(`${mock.origin}/__mock/faults`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ latencyMs: 1 }),
    });
    await stream.waitFor(2);
    expect(stream.events[1]).toEqual({ changed: ["/state"] });

    // A request to the rebuild API changes the state and the request journal.
    expect((await submit(mock.origin, "https://www.example.com/")).status).toBe(202);
    await stream.waitFor(3);
    expect(new Set(stream.events.slice(2).flatMap((e) => e.changed))).toEqual(
      new Set(["/state", "/requests"]),
    );

    // The clock's own work: the completion and its callback attempt.
    const before = stream.events.length;
    mock.world.clock.advance(5_000);
    await stream.waitFor(before + 1);
    expect(stream.events.at(-1)?.changed).toContain("/state");

    // A reset clears the request journal too: the page reads it again.
    const beforeReset = stream.events.length;
    expect((await fetch(`${mock.origin}/__mock/reset`, { method: "POST" })).status).toBe(204);
    await stream.waitFor(beforeReset + 1);
    expect(new Set(stream.events.slice(beforeReset).flatMap((e) => e.changed))).toEqual(
      new Set(["/state", "/requests"]),
    );
  });

  // How many events a window of 200 ms allows is test/unit/event-streams.test.ts's, on a virtual
  // clock; here, that a burst over real sockets is coalesced, and its last change still announced.
  it("coalesces a burst of requests: far fewer events than changes", async () => {
    const mock = await startWith();
    const stream = await openStream(mock.origin);
    await stream.waitFor(1);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => submit(mock.origin, `https://burst-${i}.example.com/`)),
    );
    expect(answers.filter((a) => a.status === 202)).toHaveLength(30);
    await vi.waitFor(() => expect(mock.world.state().rebuild.rebuilds).toHaveLength(30));
    // A change after the burst: the event announcing it is written after every event of the burst,
    // so once it has arrived, all of them have.
    const seen = stream.events.length;
    await fetch(`${mock.origin}/__mock/faults`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ latencyMs: 1 }),
    });
    await stream.waitFor(seen + 1);
    const burstEvents = stream.events.length - 1;
    expect(burstEvents).toBeGreaterThanOrEqual(1);
    // 100 requests, each changing the state and the journal: never one event per request.
    expect(burstEvents).toBeLessThan(100);
  });

  it("removes the world's listener when the client disconnects, and adds it only while someone listens", async () => {
    const port = await freePort();
    const { world, listeners } = countedWorld(`http://127.0.0.1:${port}`);
    const mock = await startWith({ world, port });
    expect(listeners()).toBe(0);
    const a = await openStream(mock.origin);
    const b = await openStream(mock.origin);
    await Promise.all([a.waitFor(1), b.waitFor(1)]);
    expect(listeners()).toBe(1);

    a.close();
    b.close();
    await vi.waitFor(() => expect(listeners()).toBe(0));
    // Changes with nobody listening cost nothing and break nothing.
    expect((await submit(mock.origin, "https://after.example.com/")).status).toBe(202);
    const c = await openStream(mock.origin);
    await c.waitFor(1);
    expect(listeners()).toBe(1);
  });

  it("refuses the stream past the cap (16 by default) with 429 and the error envelope, until one closes", async () => {
    const mock = await startWith();
    const streams = await Promise.all(Array.from({ length: 16 }, () => openStream(mock.origin)));
    expect(streams.map((s) => s.answer.statusCode)).toEqual(Array(16).fill(200));

    const refused = await fetch(`${mock.origin}/__mock/events`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("10");
    expect(refused.headers.get("content-type")).toBe("application/json");
    expect(await refused.json()).toEqual({
      message: expect.stringContaining("At most 16 event streams"),
      error: { code: "RATE_LIMIT_EXCEEDED" },
    });
    // HEAD opens nothing, so it is answered even now.
    const head = await fetch(`${mock.origin}/__mock/events`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");

    streams[0]?.close();
    await vi.waitFor(
      async () => {
        const again = await openStream(mock.origin);
        again.close();
        expect(again.answer.statusCode).toBe(200);
      },
      { timeout: 10_000, interval: 50 },
    );
  });

  it("sixteen clients that never read hold no slot for long: a new console gets its stream (issue 22, point 11)", async () => {
    const mock = await startWith({ events: { evictAfterMs: 300 } });
    const { host } = new URL(mock.origin);
    const silent = await Promise.all(
      Array.from(
        { length: 16 },
        () =>
          new Promise<Socket>((resolve, reject) => {
            const socket = connect({ host: "127.0.0.1", port: Number(new URL(mock.origin).port) }, () => {
              // Asks for the stream, then never reads a byte (the kernel's buffers take what comes).
              socket.pause();
              socket.write(`GET /__mock/events HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
              resolve(socket);
            });
            socket.on("error", reject);
          }),
      ),
    );
    onTestFinished(() => {
      for (const socket of silent) socket.destroy();
    });
    // Every slot is taken (a probe that still got one gives it back at once).
    await vi.waitFor(
      async () => {
        const probe = await fetch(`${mock.origin}/__mock/events`);
        await probe.body?.cancel();
        expect(probe.status).toBe(429);
      },
      { timeout: 5_000, interval: 20 },
    );
    const console = await vi.waitFor(
      async () => {
        const stream = await openStream(mock.origin);
        if (stream.answer.statusCode !== 200) stream.close();
        expect(stream.answer.statusCode).toBe(200);
        return stream;
      },
      { timeout: 5_000, interval: 50 },
    );
    await console.waitFor(1);
    expect(console.events[0]).toEqual({ changed: ["/state", "/requests"] });
  });

  it("sends heartbeat comments on an idle stream", async () => {
    const mock = await startWith({ events: { heartbeatMs: 20 } });
    const stream = await openStream(mock.origin);
    await vi.waitFor(() =>
      expect(stream.text().match(/^: heartbeat$/gm)?.length ?? 0).toBeGreaterThanOrEqual(2),
    );
  });

  it("ends open streams when the server closes", async () => {
    const mock = await startMockServer({ port: 0, clock: createClock({ frozenAt: FROZEN_AT }) });
    const stream = await openStream(mock.origin);
    await stream.waitFor(1);
    const ended = new Promise<void>((resolve) => stream.answer.once("close", () => resolve()));
    await mock.close();
    await ended;
  });
});

describe("the console and its events at the edge", () => {
  it("are refused to a Host and an origin the edge does not allow, like the rest of /__mock", async () => {
    const mock = await startWith();
    for (const path of ["/__mock/console", "/__mock/events"]) {
      const host = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = request(`${mock.origin}${path}`, { headers: { host: "evil.example" } }, resolve);
        req.on("error", reject);
        req.end();
      });
      expect(host.statusCode).toBe(403);
      host.resume();

      const origin = await fetch(`${mock.origin}${path}`, { headers: { origin: "http://evil.example" } });
      expect(origin.status).toBe(403);
      expect(await origin.json()).toEqual({
        message: expect.stringContaining("Origin http://evil.example may not use the control API"),
        error: { code: "FORBIDDEN" },
      });
    }
  });

  it("let an allowed origin (a dev server on localhost) open the stream, with CORS headers", async () => {
    const mock = await startWith();
    const stream = await openStream(mock.origin, { origin: "http://localhost:5173" });
    expect(stream.answer.statusCode).toBe(200);
    expect(stream.answer.headers["access-control-allow-origin"]).toBe("http://localhost:5173");
    await stream.waitFor(1);
  });
});

describe("GET /__mock/console", () => {
  it("is one page with its script and style inlined, allowed by hash, that may talk to its own origin only", async () => {
    const mock = await startWith();
    const answer = await fetch(`${mock.origin}/__mock/console`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    const page = await answer.text();
    const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? "");
    const styles = [...page.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? "");
    expect(scripts).toHaveLength(1);
    expect(styles).toHaveLength(1);
    const markup = page.replace(scripts[0] ?? "", "").replace(styles[0] ?? "", "");
    expect(markup).not.toMatch(/<script\s[^>]*src=|<link\s(?![^>]*rel="icon")|<img|<iframe/i);
    expect(styles[0]).not.toMatch(/@import|url\(/i);
    const hash = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
    expect(answer.headers.get("content-security-policy")).toBe(
      [
        "default-src 'none'",
        `script-src ${hash(scripts[0] ?? "")}`,
        `style-src ${hash(styles[0] ?? "")}`,
        "connect-src 'self'",
        "img-src data:",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ].join("; "),
    );
    // Nothing the page refers to is on another host (the icon is a data: URL).
    const references = [...page.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1] ?? "");
    expect(references.every((ref) => ref.startsWith("#") || ref.startsWith("data:"))).toBe(true);

    const head = await fetch(`${mock.origin}/__mock/console`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(page)));
    expect(await head.text()).toBe("");
    const post = await fetch(`${mock.origin}/__mock/console`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });

  it("is the standalone server's only: under MSW (any dispatcher) both paths answer 404 saying so", async () => {
    const world = createMockWorld({ clock: createClock({ frozenAt: FROZEN_AT }) });
    const dispatch = createMockDispatcher(world);
    for (const path of ["/__mock/console", "/__mock/events"]) {
      const result = await dispatch({
        method: "GET",
        url: new URL(`${world.origin}${path}`),
        headers: new Headers(),
        body: null,
      });
      expect(result).toMatchObject({
        kind: "respond",
        response: {
          status: 404,
          body: {
            message: expect.stringContaining("standalone mock server only"),
            error: { code: "NOT_FOUND" },
          },
        },
      });
    }
  });
});
