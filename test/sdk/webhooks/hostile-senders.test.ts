// Issue 22, the receiver: a long timeoutMs stays long, a key that can never match is refused at
// setup, de-dup keys of the two kinds never meet, an integer JavaScript cannot hold exactly is a
// 400, and a body that drips in is cut off at timeoutMs, in the fetch handler and through toNodeHandler.
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { createRebuildWebhookHandler, toNodeHandler } from "../../../src/webhooks/index.js";
import { callbackRequest, succeeded, WEBHOOK_KEY } from "./fixtures.js";

describe("numeric options are checked as the clients check theirs", () => {
  it.each([2 ** 31, 2 ** 40, Number.MAX_VALUE])(
    "a timeoutMs of %d is long (read as about 24.8 days), not 1 ms",
    async (timeoutMs) => {
      // vitest's fake timers fire a delay past 2^31 - 1 ms after 1 ms, as Node's do.
      vi.useFakeTimers();
      onTestFinished(() => {
        vi.useRealTimers();
      });
      const seen: boolean[] = [];
      const handler = createRebuildWebhookHandler({
        webhookApiKey: WEBHOOK_KEY,
        timeoutMs,
        onCompleted: async (_event, { signal }) => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          seen.push(signal.aborted);
        },
      });
      const answered = handler(callbackRequest(succeeded));
      await vi.advanceTimersByTimeAsync(20);
      expect((await answered).status).toBe(200);
      expect(seen).toEqual([false]);
    },
  );

  it.each([0, -1, Number.NaN, "8000" as never])("a timeoutMs of %s is a TypeError naming it", (timeoutMs) => {
    expect(() =>
      createRebuildWebhookHandler({ webhookApiKey: WEBHOOK_KEY, onCompleted: () => {}, timeoutMs }),
    ).toThrow(new TypeError("timeoutMs must be a number of milliseconds above 0, or Infinity for none"));
  });
});

describe("a webhookApiKey no callback can ever carry is refused at setup, as the clients' apiKey", () => {
  it.each([
    ["a trailing newline (read from a file)", `${WEBHOOK_KEY}\n`],
    ["a leading space", ` ${WEBHOOK_KEY}`],
    ["a character beyond Latin-1", `${WEBHOOK_KEY}€`],
    ["a control character", `${WEBHOOK_KEY}\u0001x`],
  ])("%s", (_, webhookApiKey) => {
    expect(() => createRebuildWebhookHandler({ webhookApiKey, onCompleted: () => {} })).toThrow(
      new TypeError(
        "createRebuildWebhookHandler: webhookApiKey must be a non-empty header value without surrounding whitespace",
      ),
    );
  });
});

describe("de-duplication keys", () => {
  it("a short request_id that spells the hashed key of a long one is another event", async () => {
    const onCompleted = vi.fn();
    const handler = createRebuildWebhookHandler({ webhookApiKey: WEBHOOK_KEY, onCompleted });
    const long = "r".repeat(101);
    const spelled = `sha256:${createHash("sha256").update(long).digest("hex")}`;
    for (const requestId of [long, spelled, long, spelled]) {
      expect((await handler(callbackRequest({ ...succeeded, request_id: requestId }))).status).toBe(200);
    }
    expect(onCompleted.mock.calls.map(([event]) => event.request_id)).toEqual([long, spelled]);
  });
});

describe("an integer the contract allows but JavaScript cannot hold exactly", () => {
  it.each(["9007199254740993", "9007199254740992", "-9007199254740993", "1152921504606846976"])(
    "partner_id %s: 400, onCompleted not called",
    async (written) => {
      const onCompleted = vi.fn();
      const handler = createRebuildWebhookHandler({ webhookApiKey: WEBHOOK_KEY, onCompleted });
      const body = JSON.stringify(succeeded).replace('"partner_id":1001', `"partner_id":${written}`);
      const response = await handler(callbackRequest(body));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error:
          "invalid rebuild callback: partner_id: must be within ±(2^53 - 1): JSON numbers beyond lose digits",
      });
      expect(onCompleted).not.toHaveBeenCalled();
    },
  );

  it("the largest exact one is accepted", async () => {
    const onCompleted = vi.fn();
    const handler = createRebuildWebhookHandler({ webhookApiKey: WEBHOOK_KEY, onCompleted });
    const response = await handler(callbackRequest({ ...succeeded, partner_id: Number.MAX_SAFE_INTEGER }));
    expect(response.status).toBe(200);
    expect(onCompleted.mock.calls[0]?.[0].partner_id).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe("the body must arrive within timeoutMs", () => {
  /** A body that sends one byte of `text` every 20 ms, and never ends once they are all sent. */
  function drip(text: string): ReadableStream<Uint8Array> {
    const bytes = new TextEncoder().encode(text);
    let sent = 0;
    return new ReadableStream({
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (sent < bytes.length) controller.enqueue(bytes.subarray(sent, ++sent));
      },
    });
  }

  it("the fetch handler answers 408 when the body is still dripping at timeoutMs", async () => {
    const onCompleted = vi.fn();
    const handler = createRebuildWebhookHandler({ webhookApiKey: WEBHOOK_KEY, onCompleted, timeoutMs: 300 });
    const started = performance.now();
    const response = await handler(
      new Request("https://partner.example.com/hook", {
        method: "POST",
        headers: { "x-api-key": WEBHOOK_KEY, "content-type": "application/json" },
        body: drip(JSON.stringify(succeeded)),
        duplex: "half",
      } as RequestInit),
    );
    expect(response.status).toBe(408);
    expect(await response.json()).toEqual({ error: "the request body did not arrive within 300 ms" });
    expect(performance.now() - started).toBeLessThan(1300);
    expect(onCompleted).not.toHaveBeenCalled();
  });

  describe("through toNodeHandler", () => {
    let server: Server | undefined;
    afterEach(async () => {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
      server = undefined;
    });

    it("a sender with the right key that drips the body gets 408 at timeoutMs and is disconnected", async () => {
      const onCompleted = vi.fn();
      server = createServer(
        toNodeHandler(
          createRebuildWebhookHandler({ webhookApiKey: WEBHOOK_KEY, onCompleted, timeoutMs: 300 }),
        ),
      );
      await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as { port: number };
      const body = JSON.stringify(succeeded);
      const started = performance.now();
      const { answer, closedAfterMs } = await new Promise<{ answer: string; closedAfterMs: number }>(
        (resolve, reject) => {
          const socket = connect({ port, host: "127.0.0.1" });
          let answer = "";
          let sent = 0;
          const dripping = setInterval(() => {
            if (sent < body.length && !socket.destroyed) socket.write(body[sent++] ?? "");
          }, 20);
          socket.setEncoding("latin1");
          socket.on("data", (chunk: string) => {
            answer += chunk;
          });
          socket.on("error", () => {});
          socket.on("close", () => {
            clearInterval(dripping);
            resolve({ answer, closedAfterMs: performance.now() - started });
          });
          socket.write(
            "POST /hook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
              `X-API-Key: ${WEBHOOK_KEY}\r\nContent-Length: ${body.length}\r\n\r\n`,
          );
          setTimeout(() => reject(new Error(`not closed; got ${JSON.stringify(answer)}`)), 10_000).unref();
        },
      );
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toMatch(/connection: close/i);
      expect(answer).toContain('{"error":"the request body did not arrive within 300 ms"}');
      // Answered at 300 ms, cut off after the second's grace an unread body gets.
      expect(closedAfterMs).toBeLessThan(300 + 1000 + 1500);
      expect(onCompleted).not.toHaveBeenCalled();
    });
  });
});
