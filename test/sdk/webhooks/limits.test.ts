// The receiver under load and abuse (issue 12, point 7): the key is checked before any of the body
// is read, in the fetch handler and through toNodeHandler; onCompleted has a time limit after which
// the service is told to retry and later copies go ahead; the de-dup store is bounded in bytes.
import { createServer, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createMemoryDeliveryStore,
  createRebuildWebhookHandler,
  type DeliveryStore,
  type RebuildCompletedCallback,
  toNodeHandler,
} from "../../../src/webhooks/index.js";
import { callbackRequest, failed, succeeded, WEBHOOK_KEY } from "./fixtures.js";

const MiB = 1024 * 1024;

afterEach(() => {
  vi.useRealTimers();
});

/** A request body that counts how many chunks anyone pulled from it. */
function countingBody() {
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulls++;
      controller.enqueue(new Uint8Array(64 * 1024));
    },
  });
  return { stream, pulls: () => pulls };
}

describe("the key is checked before the body is read", () => {
  it.each([
    ["a wrong key", "whk_wrong"],
    ["no key", null],
  ])("the fetch handler answers %s with 401 and pulls nothing from the body", async (_, key) => {
    const onCompleted = vi.fn();
    const handler = createRebuildWebhookHandler({ webhookApiKey: WEBHOOK_KEY, onCompleted });
    const body = countingBody();
    const request = new Request("https://partner.example.com/hook", {
      method: "POST",
      headers: key === null ? {} : { "x-api-key": key },
      body: body.stream,
      duplex: "half",
    } as RequestInit);
    expect((await handler(request)).status).toBe(401);
    expect(request.bodyUsed).toBe(false);
    // The stream's own start-up pull (highWaterMark 1) at most; nobody read.
    expect(body.pulls()).toBeLessThanOrEqual(1);
    expect(onCompleted).not.toHaveBeenCalled();
  });

  describe("through toNodeHandler", () => {
    let server: Server | undefined;
    const sockets: Socket[] = [];

    afterEach(async () => {
      for (const socket of sockets.splice(0)) socket.destroy();
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
      server = undefined;
    });

    async function start(): Promise<number> {
      const onCompleted = vi.fn();
      server = createServer(
        toNodeHandler(createRebuildWebhookHandler({ webhookApiKey: WEBHOOK_KEY, onCompleted })),
      );
      // As behind a load balancer: node's own 5 s would otherwise end idle connections soon anyway.
      server.keepAliveTimeout = 120_000;
      await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
      const address = server.address();
      if (address === null || typeof address === "string") throw new Error("no port");
      return address.port;
    }

    // One 64 kB buffer, written again and again: the client side holds no copies of it.
    const chunk = Buffer.alloc(64 * 1024, "x");

    /**
     * Opens a connection that announces a 1 MiB body with `key`, sends all of it but the last byte
     * and then stalls, never closing its side (as a hostile client would not). Resolves with the
     * answer.
     */
    function stalledPost(port: number, key: string): Promise<string> {
      return new Promise((resolve, reject) => {
        const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
        sockets.push(socket);
        let received = "";
        socket.setEncoding("latin1");
        socket.on("data", (chunk: string) => {
          received += chunk;
          if (received.endsWith("}")) resolve(received);
        });
        socket.on("error", () => {}); // a reset once the answer is in is fine
        socket.on("connect", () => {
          socket.write(
            "POST /hook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
              `X-API-Key: ${key}\r\nContent-Length: ${MiB}\r\n\r\n`,
          );
          for (let sent = 0; sent < MiB; sent += chunk.length) {
            socket.write(sent + chunk.length < MiB ? chunk : chunk.subarray(1));
          }
          // …and not the last byte: the connection stalls.
        });
        setTimeout(() => reject(new Error(`no answer; got ${JSON.stringify(received)}`)), 20_000).unref();
      });
    }

    /** Resolves once the server holds no connection any more (fails the test after 20 s). */
    async function serverConnectionsClosed(): Promise<void> {
      for (let waited = 0; waited < 20_000; waited += 50) {
        const open = await new Promise<number>((resolve) =>
          server?.getConnections((_, count) => resolve(count)),
        );
        if (open === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error("the server kept stalled connections open");
    }

    it("150 stalled wrong-key connections: each answered 401 at once, then closed; memory stays flat", async () => {
      const port = await start();
      const before = process.memoryUsage();
      const answers = await Promise.all(Array.from({ length: 150 }, () => stalledPost(port, "whk_wrong")));
      const after = process.memoryUsage();
      for (const answer of answers) {
        expect(answer).toMatch(/^HTTP\/1\.1 401 /);
        expect(answer.toLowerCase()).toContain("connection: close");
        expect(answer).toContain("X-API-Key does not match the configured webhook API key");
      }
      // Buffering the announced bodies would take 150 MiB; nothing of them is kept.
      expect(after.heapUsed - before.heapUsed).toBeLessThan(40 * MiB);
      expect(after.rss - before.rss).toBeLessThan(80 * MiB);
      // The server does not wait for bodies that will never come (its own timeouts are minutes).
      await serverConnectionsClosed();
    }, 30_000);

    it("the right key still gets its body read and handled after stalled wrong-key connections", async () => {
      const port = await start();
      await Promise.all(Array.from({ length: 5 }, () => stalledPost(port, "whk_wrong")));
      const response = await fetch(`http://127.0.0.1:${port}/hook`, {
        method: "POST",
        headers: { "x-api-key": WEBHOOK_KEY, "content-type": "application/json" },
        body: JSON.stringify(succeeded),
      });
      expect(response.status).toBe(200);
    });
  });
});

describe("onCompleted's time limit", () => {
  function deferred() {
    let resolve = () => {};
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    return { promise, resolve };
  }

  /** Settles `promise` while advancing the fake clock in steps of `stepMs`. */
  async function settle<T>(promise: Promise<T>, stepMs = 500): Promise<T> {
    let done = false;
    void promise.finally(() => {
      done = true;
    });
    while (!done) await vi.advanceTimersByTimeAsync(stepMs);
    return promise;
  }

  it("answers 500 after 8 s by default, aborts the signal, and lets the waiting copy through", async () => {
    vi.useFakeTimers();
    const signals: AbortSignal[] = [];
    let calls = 0;
    const handler = createRebuildWebhookHandler({
      webhookApiKey: WEBHOOK_KEY,
      onCompleted: (_event, { signal }) => {
        signals.push(signal);
        calls++;
        // The first call never settles; the second (the retried copy) succeeds.
        return calls === 1 ? new Promise<void>(() => {}) : undefined;
      },
    });
    const first = handler(callbackRequest(succeeded));
    const copy = handler(callbackRequest(succeeded));
    let firstStatus: number | undefined;
    void first.then((response) => {
      firstStatus = response.status;
    });
    await vi.advanceTimersByTimeAsync(7_999);
    expect(firstStatus).toBeUndefined();
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect((await first).status).toBe(500);
    expect(await (await first).json()).toEqual({ error: "the callback could not be processed" });
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[0]?.reason).toMatchObject({ name: "TimeoutError" });
    expect((await settle(copy)).status).toBe(200);
    expect(calls).toBe(2);
    expect(signals[1]?.aborted).toBe(false);
  });

  it("a copy arriving after the time limit is handled at once, and a late success is remembered", async () => {
    vi.useFakeTimers();
    const gate = deferred();
    const onCompleted = vi.fn((event: RebuildCompletedCallback) =>
      event.request_id === "slow" ? gate.promise : undefined,
    );
    const handler = createRebuildWebhookHandler({ webhookApiKey: WEBHOOK_KEY, onCompleted, timeoutMs: 1000 });
    const slow = { ...failed, request_id: "slow" };
    expect((await settle(handler(callbackRequest(slow)))).status).toBe(500);
    // Another event is not held up by the slow one.
    expect((await settle(handler(callbackRequest(succeeded)))).status).toBe(200);
    // The slow call finishes after all: its event is recorded, so the service's retry is acknowledged.
    gate.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect((await settle(handler(callbackRequest(slow)))).status).toBe(200);
    expect(onCompleted).toHaveBeenCalledTimes(2);
  });

  it("covers a store that never answers", async () => {
    vi.useFakeTimers();
    const store: DeliveryStore = { has: () => new Promise(() => {}), add: () => {} };
    const handler = createRebuildWebhookHandler({
      webhookApiKey: WEBHOOK_KEY,
      onCompleted: () => {},
      store,
      timeoutMs: 50,
    });
    expect((await settle(handler(callbackRequest(succeeded)), 10)).status).toBe(500);
  });

  it.each([0, -1, Number.NaN, "8000" as never])("refuses a timeoutMs of %s", (timeoutMs) => {
    expect(() =>
      createRebuildWebhookHandler({ webhookApiKey: WEBHOOK_KEY, onCompleted: () => {}, timeoutMs }),
    ).toThrow(new TypeError("timeoutMs must be a number of milliseconds above 0, or Infinity for none"));
  });
});

describe("the de-dup store is bounded in bytes", () => {
  it("the memory store evicts the least recent keys past maxBytes", () => {
    // Each key of 100 characters counts 2 · 100 + 64 = 264 bytes: three fit in 800.
    const store = createMemoryDeliveryStore({ maxBytes: 800 });
    const key = (n: number) => `success:${String(n).padStart(92, "0")}`;
    for (let n = 0; n < 5; n++) store.add(key(n));
    expect([0, 1, 2, 3, 4].map((n) => store.has(key(n)))).toEqual([false, false, true, true, true]);
  });

  it("a key larger than maxBytes is not kept at all", () => {
    const store = createMemoryDeliveryStore({ maxBytes: 100 });
    store.add("x".repeat(100));
    expect(store.has("x".repeat(100))).toBe(false);
  });

  it.each([0, -1, Number.NaN])("refuses a maxBytes of %s", (maxBytes) => {
    expect(() => createMemoryDeliveryStore({ maxBytes })).toThrow(
      new TypeError("maxBytes must be a number of bytes, 1 or more"),
    );
  });

  it("the handler hashes long request_ids, so no store ever gets a large key", async () => {
    const keys: string[] = [];
    const inner = createMemoryDeliveryStore();
    const store: DeliveryStore = {
      has: (key) => inner.has(key),
      add: (key) => {
        keys.push(key);
        inner.add(key);
      },
    };
    const onCompleted = vi.fn();
    const handler = createRebuildWebhookHandler({ webhookApiKey: WEBHOOK_KEY, onCompleted, store });
    const ids = ["a", "b"].map((letter) => letter.repeat(MiB - 1000));
    for (const id of [...ids, ids[0]]) {
      expect((await handler(callbackRequest({ ...succeeded, request_id: id }))).status).toBe(200);
    }
    // Two distinct events, and the repeat of the first was recognised.
    expect(onCompleted).toHaveBeenCalledTimes(2);
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(key).toMatch(/^success#sha256:[0-9a-f]{64}$/);
    expect(keys[0]).not.toBe(keys[1]);
    // Short ids are kept as they are.
    await handler(callbackRequest(failed));
    expect(keys.at(-1)).toBe(`failed:${failed.request_id}`);
  });
});
