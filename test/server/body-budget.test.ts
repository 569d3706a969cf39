// The standalone server holds at most `maxBufferedBodyBytes` of request bodies at once, across
// connections: each route bounds one body, this bounds them together, so many clients sending large
// bodies at once cannot exhaust its memory. A body past it is answered 503 (Retry-After: 1), unread,
// its connection closed; the bytes come back when a body is dispatched or its client goes away.
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClock, type RunningMockServer, startMockServer } from "../../mocks/node.js";
import { FROZEN_AT, PARTNER } from "../support/default-seed.js";
import { rawClient, socketExchange } from "../support/raw-http.js";

const KiB = 1024;
const BUDGET = 512 * KiB;
const SINK = "/__mock/webhook-sink/1001";
const REBUILDS = "/api/integration/partners/hostpanel/rebuilds";

let mock: RunningMockServer;
beforeAll(async () => {
  mock = await startMockServer({
    port: 0,
    clock: createClock({ frozenAt: FROZEN_AT }),
    maxBufferedBodyBytes: BUDGET,
  });
});
afterAll(() => mock.close());

const port = () => Number(new URL(mock.origin).port);

/** A JSON body of exactly `bytes` bytes. */
function jsonOf(bytes: number): string {
  return `{"pad":"${"x".repeat(bytes - 10)}"}`;
}

function head(contentLength: number, path = SINK, extra: readonly string[] = []): string {
  return [
    `POST ${path} HTTP/1.1`,
    "Host: 127.0.0.1",
    ...extra,
    "Content-Type: application/json",
    // So that the server ends each exchange once it has answered.
    "Connection: close",
    `Content-Length: ${contentLength}`,
    "",
    "",
  ].join("\r\n");
}

/** POSTs a body of `bytes` to the sink on a fresh connection; its answer. */
function post(bytes: number) {
  return socketExchange(port(), head(bytes) + jsonOf(bytes), { waitMs: 5_000 });
}

/** Starts a POST whose body is `total` bytes and sends only `sent` of them; the socket stays open. */
async function partial(total: number, sent: number): Promise<Socket> {
  const socket = connect(port(), "127.0.0.1");
  socket.on("error", () => {});
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  await new Promise<void>((resolve) =>
    socket.write(head(total) + jsonOf(total).slice(0, sent), () => resolve()),
  );
  return socket;
}

/** POSTs `count` bodies of `bytes` to the sink, one after another on one kept-alive connection; the statuses. */
async function inARow(origin: string, count: number, bytes: number): Promise<number[]> {
  const client = rawClient(origin);
  try {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      const { status } = await client.send({
        method: "POST",
        path: SINK,
        headers: [["Content-Type", "application/json"]],
        body: new TextEncoder().encode(jsonOf(bytes)),
      });
      statuses.push(status);
    }
    return statuses;
  } finally {
    client.close();
  }
}

/**
 * POSTs `bytes` to the sink until `done` holds for the answer's status, at most 50 times: the server
 * sees a client's bytes, or its going, a few event-loop turns after the client acts. The last answer.
 */
async function postUntil(bytes: number, done: (status: number) => boolean) {
  let answer = await post(bytes);
  for (let i = 1; i < 50 && !done(answer.status); i++) answer = await post(bytes);
  return answer;
}
const busy = (status: number) => status === 503;
const taken = (status: number) => status !== 503;

describe("maxBufferedBodyBytes", () => {
  it("refuses a body that alone passes it with 413 (a retry could never succeed), the connection closed", async () => {
    const answer = await post(BUDGET + 64 * KiB);
    expect(answer.status).toBe(413);
    expect(answer.headers["retry-after"]).toBeUndefined();
    expect(answer.headers.connection).toBe("close");
    expect(answer.closedByServer).toBe(true);
    expect(JSON.parse(answer.body)).toEqual({
      message: `Request body exceeds ${BUDGET} bytes, all this server holds at once`,
      error: { code: "PAYLOAD_TOO_LARGE" },
    });
    // Nothing reached the sink.
    expect(mock.world.state().rebuild.sink).toEqual({});
  });

  it("refuses a body while others fill it with 503, Retry-After: 1, the envelope, and the connection closed", async () => {
    const a = await partial(400 * KiB, 300 * KiB);
    // (A probe read before A's bytes are is taken: the server sees them a few turns later.)
    const answer = await postUntil(250 * KiB, busy);
    expect(answer.status).toBe(503);
    expect(answer.headers["retry-after"]).toBe("1");
    expect(answer.headers.connection).toBe("close");
    expect(answer.closedByServer).toBe(true);
    expect(JSON.parse(answer.body)).toEqual({
      message: `The mock is already reading ${BUDGET} bytes of request bodies; retry shortly`,
      error: { code: "INTERNAL" },
    });
    a.destroy();
    expect((await postUntil(250 * KiB, taken)).status).toBe(200);
    mock.world.reset();
  });

  it("counts a body until its answer is out, however late (an injected latency)", async () => {
    mock.world.setFaults({ latencyMs: 400 });
    try {
      // A's body (to the rebuild API, where faults apply) is read at once; its answer (400: the body
      // is not a rebuild request) waits 400 ms of real time, holding it.
      const partner = [`X-Partner-Id: ${PARTNER.ok.id}`, `X-API-Key: ${PARTNER.ok.apiKey}`];
      const a = socketExchange(port(), head(300 * KiB, REBUILDS, partner) + jsonOf(300 * KiB), {
        waitMs: 5_000,
      });
      expect((await postUntil(250 * KiB, busy)).status).toBe(503);
      expect((await a).status).toBe(400);
    } finally {
      mock.world.setFaults({ latencyMs: 0 });
    }
    expect((await postUntil(250 * KiB, taken)).status).toBe(200);
    mock.world.reset();
  });

  it("gives a dispatched body's bytes back: bodies of most of the budget, one after another, are all taken", async () => {
    try {
      expect(await inARow(mock.origin, 8, 400 * KiB)).toEqual(Array(8).fill(200));
    } finally {
      mock.world.reset();
    }
  });

  it("gives a refused body's bytes back: bodies over the route's 1 MiB, one after another, are each a 413", async () => {
    // A budget of three bodies over the limit: the fourth would be a 503 if the refused ones kept theirs.
    const roomy = await startMockServer({
      port: 0,
      clock: createClock({ frozenAt: FROZEN_AT }),
      maxBufferedBodyBytes: 3 * 1025 * KiB,
    });
    try {
      expect(await inARow(roomy.origin, 6, 1100 * KiB)).toEqual(Array(6).fill(413));
    } finally {
      await roomy.close();
    }
  });

  it("counts bodies being read on other connections, and gives their bytes back when they end or their clients go", async () => {
    // A holds 300 KiB of a 400 KiB body: then 250 KiB more cannot be held, though alone it could.
    // (A probe read before A's bytes are is taken: the server sees them a few turns later.)
    const a = await partial(400 * KiB, 300 * KiB);
    expect((await postUntil(250 * KiB, busy)).status).toBe(503);

    // A's client goes away mid-body: its bytes come back.
    a.destroy();
    expect((await postUntil(250 * KiB, taken)).status).toBe(200);

    // B holds 300 KiB too, then sends the rest: once it is answered, its bytes are back as well.
    const b = await partial(400 * KiB, 300 * KiB);
    expect((await postUntil(250 * KiB, busy)).status).toBe(503);
    const answered = new Promise<string>((resolve) => {
      let text = "";
      b.setEncoding("latin1");
      b.on("data", (chunk: string) => {
        text += chunk;
        if (text.includes("\r\n\r\n")) resolve(text.split("\r\n")[0] ?? "");
      });
    });
    b.write(jsonOf(400 * KiB).slice(300 * KiB));
    expect(await answered).toBe("HTTP/1.1 200 OK");
    b.destroy();
    expect((await postUntil(250 * KiB, taken)).status).toBe(200);
    mock.world.reset();
  });

  it("is checked when the server starts", async () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(startMockServer({ port: 0, maxBufferedBodyBytes: bad })).rejects.toThrow(
        `startMockServer: maxBufferedBodyBytes must be a positive whole number of bytes, got ${bad}`,
      );
    }
  });
});
