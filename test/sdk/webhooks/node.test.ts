import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type RequestListener,
  type Server,
} from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createRebuildWebhookHandler,
  parseRebuildCallback,
  type RebuildCompletedCallback,
  toNodeHandler,
} from "../../../src/webhooks/index.js";
import { failed, succeeded, WEBHOOK_KEY } from "./fixtures.js";

const MiB = 1024 * 1024;
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/rebuild`;
}

function receiver() {
  const onCompleted = vi.fn();
  return {
    onCompleted,
    listener: toNodeHandler(createRebuildWebhookHandler({ webhookApiKey: WEBHOOK_KEY, onCompleted })),
  };
}

function post(url: string, body: string, key: string | null = WEBHOOK_KEY): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key === null ? {} : { "x-api-key": key }) },
    body,
  });
}

/** Reads the whole stream the way a body-parsing middleware would. */
async function consume(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe("toNodeHandler over node:http", () => {
  it("delivers a real POST to onCompleted and writes the handler's response", async () => {
    const { listener, onCompleted } = receiver();
    const url = await listen(listener);
    const response = await post(url, JSON.stringify(succeeded));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual({ received: true });
    expect(onCompleted).toHaveBeenCalledWith(succeeded, expect.anything());
    expect((await post(url, JSON.stringify(succeeded))).status).toBe(200);
    expect(onCompleted).toHaveBeenCalledTimes(1);
  });

  it("passes the statuses through: 401, 400 and 405 with Allow", async () => {
    const { listener, onCompleted } = receiver();
    const url = await listen(listener);
    const unauthorized = await post(url, JSON.stringify(failed), "wrong");
    expect([unauthorized.status, await unauthorized.json()]).toEqual([
      401,
      { error: "X-API-Key does not match the configured webhook API key" },
    ]);
    expect((await post(url, "{")).status).toBe(400);
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(onCompleted).not.toHaveBeenCalled();
  });

  it("builds the Request URL from the Host header", async () => {
    const seen: string[] = [];
    const url = await listen(
      toNodeHandler(async (request) => {
        seen.push(request.url);
        return new Response(null, { status: 204 });
      }),
    );
    expect((await fetch(`${url}?x=1`, { method: "POST", body: "{}" })).status).toBe(204);
    expect(seen).toEqual([`${url}?x=1`]);
  });

  it("answers 413 for a declared body over 1 MiB without calling the handler", async () => {
    const handler = vi.fn(async () => new Response(null));
    const url = await listen(toNodeHandler(handler));
    const response = await post(url, "x".repeat(MiB + 1));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: `request body is larger than ${MiB} bytes` });
    expect(handler).not.toHaveBeenCalled();
  });

  it("the receiver answers 413 for a chunked body that grows over 1 MiB; the server stays usable", async () => {
    const { listener, onCompleted } = receiver();
    const url = new URL(await listen(listener));
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = httpRequest(url, { method: "POST", headers: { "x-api-key": WEBHOOK_KEY } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on("error", reject);
      const chunk = "y".repeat(64 * 1024);
      for (let sent = 0; sent <= MiB; sent += chunk.length) req.write(chunk);
      req.end();
    });
    expect(status).toBe(413);
    expect(onCompleted).not.toHaveBeenCalled();
    expect((await post(url.href, JSON.stringify(succeeded))).status).toBe(200);
  });

  it.each([
    ["cancelling the body", true],
    ["just answering", false],
  ])(
    "a handler that stops reading part-way (%s): what the sender still sends is dropped, nothing throws",
    async (_, cancel) => {
      const url = new URL(
        await listen(
          toNodeHandler(async (request) => {
            const reader = request.body?.getReader();
            await reader?.read();
            if (cancel) await reader?.cancel();
            return new Response(null, { status: 204 });
          }),
        ),
      );
      let closed: Promise<void> = Promise.resolve();
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const req = httpRequest(url, { method: "POST" }, (res) => {
          res.resume();
          resolve(res.statusCode);
        });
        closed = new Promise((done) => req.once("close", () => done()));
        req.on("error", () => {}); // the server may close the connection it no longer reads
        const chunk = "z".repeat(16 * 1024);
        let sent = 0;
        const more = () => {
          if (sent >= 2 * MiB) return req.end();
          sent += chunk.length;
          req.write(chunk, () => setImmediate(more));
        };
        more();
        setTimeout(() => reject(new Error("no answer")), 20_000).unref();
      });
      expect(status).toBe(204);
      // Once the sender is done (all sent, or the connection closed), a listener left on the request
      // would have thrown into the process (vitest reports that as an unhandled error); the server
      // still answers.
      await closed;
      expect((await fetch(url, { method: "POST", body: "{}" })).status).toBe(204);
    },
  );

  it("hands the handler the body unread: a handler that answers first reads nothing", async () => {
    const seen: boolean[] = [];
    const url = await listen(
      toNodeHandler(async (request) => {
        seen.push(request.bodyUsed);
        return new Response(null, { status: 204 });
      }),
    );
    expect((await fetch(url, { method: "POST", body: "{}" })).status).toBe(204);
    expect(seen).toEqual([false]);
  });

  it("answers 500 with advice when a JSON body parser already consumed the stream", async () => {
    const { listener, onCompleted } = receiver();
    const url = await listen(async (req, res) => {
      (req as IncomingMessage & { body?: unknown }).body = JSON.parse((await consume(req)).toString());
      listener(req, res);
    });
    const response = await post(url, JSON.stringify(succeeded));
    expect(response.status).toBe(500);
    const { error } = (await response.json()) as { error: string };
    expect(error).toContain("already consumed");
    expect(error).toContain('express.raw({ type: "application/json" })');
    expect(onCompleted).not.toHaveBeenCalled();
  });

  it("uses a raw body that a framework kept (express.raw's req.body, or req.rawBody)", async () => {
    const { listener, onCompleted } = receiver();
    const url = await listen(async (req, res) => {
      const raw = await consume(req);
      const framework = req as IncomingMessage & { body?: unknown; rawBody?: unknown };
      if (req.headers["x-style"] === "raw-body") {
        framework.rawBody = raw;
        framework.body = JSON.parse(raw.toString());
      } else {
        framework.body = raw;
      }
      listener(req, res);
    });
    expect((await post(url, JSON.stringify(succeeded))).status).toBe(200);
    const withRawBody = await fetch(url, {
      method: "POST",
      headers: { "x-api-key": WEBHOOK_KEY, "x-style": "raw-body" },
      body: JSON.stringify(failed),
    });
    expect(withRawBody.status).toBe(200);
    expect(onCompleted.mock.calls.map(([event]) => event)).toEqual([succeeded, failed]);
  });

  it("never throws out of the listener: a failing handler becomes a 500", async () => {
    const url = await listen(
      toNodeHandler(async () => {
        throw new Error("boom");
      }),
    );
    const response = await fetch(url, { method: "POST", body: "{}" });
    expect([response.status, await response.json()]).toEqual([
      500,
      { error: "the callback could not be processed" },
    ]);
    expect((await fetch(url, { method: "POST", body: "{}" })).status).toBe(500);
  });

  it("writes every header of the Response, including repeated Set-Cookie", async () => {
    const url = await listen(
      toNodeHandler(async () => {
        const headers = new Headers({ "x-trace": "abc" });
        headers.append("set-cookie", "a=1");
        headers.append("set-cookie", "b=2");
        return new Response("ok", { status: 202, headers });
      }),
    );
    const response = await fetch(url, { method: "POST", body: "{}" });
    expect(response.status).toBe(202);
    expect(response.headers.get("x-trace")).toBe("abc");
    expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(await response.text()).toBe("ok");
  });

  it("lets parseRebuildCallback read a raw Buffer and Node's req.headers directly", async () => {
    const events: RebuildCompletedCallback[] = [];
    const url = await listen(async (req, res) => {
      events.push(
        parseRebuildCallback({ body: await consume(req), headers: req.headers, webhookApiKey: WEBHOOK_KEY }),
      );
      res.end();
    });
    await fetch(url, { method: "POST", headers: { "X-API-Key": WEBHOOK_KEY }, body: JSON.stringify(failed) });
    expect(events).toEqual([failed]);
  });

  it("refuses a handler that is not a function", () => {
    expect(() => toNodeHandler(undefined as never)).toThrow(new TypeError("handler must be a function"));
  });
});
