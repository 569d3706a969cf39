// Callback deliveries against real receivers (issue 11, point 5): attempts due together run at
// once, each with its own timeout (injected short here, never waited for at 10 s); a receiver that
// hangs holds back no other partner's callback, under `clock/advance` and under the real-time
// self-wake; a reset during an advance wins and late results of old attempts are discarded.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setImmediate as nextTurn } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { createClock, type RunningMockServer, startMockServer } from "../../mocks/node.js";
import { FROZEN_AT, PARTNER } from "../support/default-seed.js";

const REBUILDS = "/api/integration/partners/hostpanel/rebuilds";
const started: Array<RunningMockServer | Server> = [];

afterEach(async () => {
  for (const item of started.splice(0).reverse()) {
    if ("world" in item) await item.close();
    else {
      item.closeAllConnections();
      await new Promise((resolve) => item.close(resolve));
    }
  }
});

/** A webhook receiver: `hang` ones never answer; each request is recorded, with whether its connection is still open. */
async function receiver(hang: boolean) {
  const requests: Array<{ body: { request_id: string }; open: boolean }> = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const entry = { body: JSON.parse(Buffer.concat(chunks).toString("utf8")), open: true };
      requests.push(entry);
      res.on("close", () => {
        entry.open = false;
      });
      if (!hang) res.writeHead(200).end();
    });
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  started.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, requests };
}

async function until(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function mockServer(options: Parameters<typeof startMockServer>[0]) {
  const server = await startMockServer({ port: 0, ...options });
  started.push(server);
  return server;
}

/** A partner (a new one, or 1001) whose webhook is `url`; returns its credential headers. */
async function partnerWith(server: RunningMockServer, id: number, url: string) {
  const settings = server.world.upsertPartner(id, { webhookUrl: url, rateLimitPerHour: 1000 });
  return { "x-partner-id": String(id), "x-api-key": settings.apiKey };
}

const submit = (server: RunningMockServer, headers: Record<string, string>, sourceUrl: string) =>
  fetch(`${server.origin}${REBUILDS}`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ sourceUrl }),
  });

const advance = (server: RunningMockServer, seconds: number) =>
  fetch(`${server.origin}/__mock/clock/advance`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ seconds }),
  });

describe("attempts that fall due together run at once", () => {
  it("three receivers that never answer and a healthy one: all four get their callback before any hanging one times out", async () => {
    const server = await mockServer({ clock: createClock({ frozenAt: FROZEN_AT }), callbackTimeoutMs: 2000 });
    const hanging = await Promise.all([receiver(true), receiver(true), receiver(true)]);
    const healthy = await receiver(false);
    const partners = await Promise.all(hanging.map((r, i) => partnerWith(server, 2001 + i, r.url)));
    partners.push(await partnerWith(server, Number(PARTNER.ok.id), healthy.url));
    for (const headers of partners)
      expect((await submit(server, headers, "https://www.example.com/")).status).toBe(202);

    const advanced = advance(server, 5);
    await until(
      () => hanging.every((r) => r.requests.length === 1),
      "every hanging receiver to get its callback",
    );
    // Had the attempts run one after another, the second hanging receiver would only have been
    // called once the first one's attempt had timed out and its connection closed.
    expect(hanging.map((r) => r.requests[0]?.open)).toEqual([true, true, true]);
    expect(healthy.requests).toHaveLength(1);

    expect((await advanced).status).toBe(200);
    const deliveries = server.world.listDeliveries().data;
    expect(deliveries.map((d) => d.responseStatus).sort()).toEqual([200, null, null, null]);
    await until(
      () => hanging.every((r) => r.requests[0]?.open === false),
      "the timed-out attempts' connections to close",
    );
    // Retries are due 10 s after each attempt ended: in virtual time, when it started (frozen clock).
    expect(server.world.snapshot().rebuild.deliveries.pending.map((p) => [p.attempt, p.dueAt])).toEqual([
      [2, "2026-03-01T12:00:15.000Z"],
      [2, "2026-03-01T12:00:15.000Z"],
      [2, "2026-03-01T12:00:15.000Z"],
    ]);
  });

  it("under the real-time self-wake, a partner whose receiver hangs does not delay another partner's callback", async () => {
    const server = await mockServer({ rebuildDelayMs: 100, callbackTimeoutMs: 60_000 });
    const slow = await receiver(true);
    const fast = await receiver(false);
    const slowPartner = await partnerWith(server, 3001, slow.url);
    const fastPartner = await partnerWith(server, 3002, fast.url);
    await submit(server, slowPartner, "https://slow.example.com/");
    await until(() => slow.requests.length === 1, "the slow receiver to be called");
    await submit(server, fastPartner, "https://fast.example.com/");
    await until(
      () => server.world.listDeliveries().data.length === 1,
      "the fast receiver's callback to be recorded",
    );
    expect(fast.requests).toHaveLength(1);
    expect(slow.requests[0]?.open).toBe(true);
    expect(server.world.listDeliveries().data.map((d) => [d.url, d.responseStatus])).toEqual([
      [fast.url, 200],
    ]);
  });
});

describe("a reset during an advance wins", () => {
  it("the world is exactly the seed at offset 0 afterwards, and the old attempt's late result is discarded", async () => {
    const server = await mockServer({ clock: createClock({ frozenAt: FROZEN_AT }), callbackTimeoutMs: 1000 });
    const seedState = server.world.state();
    const hang = await receiver(true);
    await partnerWith(server, Number(PARTNER.ok.id), hang.url);
    await submit(
      server,
      { "x-partner-id": PARTNER.ok.id, "x-api-key": PARTNER.ok.apiKey },
      "https://www.example.com/",
    );
    const advanced = advance(server, 3600);
    await until(() => hang.requests.length === 1, "the callback to reach the hanging receiver");

    expect((await fetch(`${server.origin}/__mock/reset`, { method: "POST" })).status).toBe(204);
    const answer = await advanced;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ now: "2026-03-01T12:00:00+00:00" });
    await until(() => hang.requests[0]?.open === false, "the old attempt to time out");
    // Turns of the event loop (no clock) for the old attempt's result to come back (and be dropped).
    for (let turn = 0; turn < 20; turn++) await nextTurn();

    const state = await (await fetch(`${server.origin}/__mock/state`)).json();
    expect(state).toEqual(JSON.parse(JSON.stringify(seedState)));
    expect(server.world.clock.now()).toBe(FROZEN_AT);
    expect(server.world.snapshot().rebuild.deliveries).toEqual({ log: [], dropped: 0, pending: [] });
  });

  it("on a clock that follows real time, the offset is 0 after the reset, not the advance's", async () => {
    const server = await mockServer({ callbackTimeoutMs: 1000 });
    const hang = await receiver(true);
    await partnerWith(server, Number(PARTNER.ok.id), hang.url);
    await submit(
      server,
      { "x-partner-id": PARTNER.ok.id, "x-api-key": PARTNER.ok.apiKey },
      "https://www.example.com/",
    );
    const advanced = advance(server, 86_400);
    await until(() => hang.requests.length === 1, "the callback to reach the hanging receiver");
    expect((await fetch(`${server.origin}/__mock/reset`, { method: "POST" })).status).toBe(204);
    expect((await advanced).status).toBe(200);
    expect(server.world.clock.offsetMs).toBe(0);
  });
});

describe("a receiver's answer costs the mock no memory, however long it is", () => {
  it("an answer of 256 MiB is read to its end without being kept, and the attempt counts its status", async () => {
    const server = await mockServer({
      clock: createClock({ frozenAt: FROZEN_AT }),
      callbackTimeoutMs: 60_000,
    });
    const MIB = 2 ** 20;
    const chunk = Buffer.alloc(MIB, 0x61);
    const flood = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "text/plain" });
        let left = 256;
        const pump = () => {
          while (left > 0) {
            left--;
            if (!res.write(chunk)) {
              res.once("drain", pump);
              return;
            }
          }
          res.end();
        };
        pump();
      });
    });
    flood.listen(0, "127.0.0.1");
    await new Promise((resolve) => flood.once("listening", resolve));
    started.push(flood);
    const headers = await partnerWith(
      server,
      Number(PARTNER.ok.id),
      `http://127.0.0.1:${(flood.address() as AddressInfo).port}/hook`,
    );
    expect((await submit(server, headers, "https://www.example.com/")).status).toBe(202);

    // This process is the mock's too: memory outside the JS heap that grows with the answer would
    // show here (kept whole, the answer alone would be 256 MiB).
    const before = process.memoryUsage().arrayBuffers;
    let peak = 0;
    const sample = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().arrayBuffers - before);
    }, 5);
    try {
      expect((await advance(server, 5)).status).toBe(200);
    } finally {
      clearInterval(sample);
    }
    expect(server.world.listDeliveries().data.map((d) => d.responseStatus)).toEqual([200]);
    // Chunks read and dropped wait for the garbage collector (about 40 MiB here); kept, at least 256.
    expect(peak).toBeLessThan(128 * MIB);
  });
});
