// Upstreams that misbehave: each gets the client a documented error in the APIs' envelope (502, or
// 504 for one that takes too long), one clear log line, and the proxy goes on serving. An answer
// larger than the proxy holds is never buffered past that.
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningProxy, startProxyServer } from "../../mocks/proxy/proxy-server.js";
import { closedPortOrigin, httpUpstream, tcpUpstream } from "./upstreams.js";

const running: RunningProxy[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((proxy) => proxy.close()));
});

async function proxyTo(
  dashboardUpstream: string,
  lines: string[],
  extra: { upstreamTimeoutMs?: number; maxExchanges?: number } = {},
) {
  const proxy = await startProxyServer({
    host: "127.0.0.1",
    port: 0,
    dashboardUpstream: `${dashboardUpstream}/v1`,
    log: (line) => lines.push(line),
    ...extra,
  });
  running.push(proxy);
  return proxy;
}

async function get(proxy: RunningProxy, path = "/v1/si/servers") {
  const response = await fetch(proxy.origin + path, { headers: { authorization: "Bearer t" } });
  return {
    status: response.status,
    body: (await response.json()) as { message: string; error: { code: string } },
  };
}

// A healthy answer after each failure: the proxy is still serving.
async function stillServes(lines: string[]) {
  const healthy = await httpUpstream((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" }).end('{"totalCount":0,"data":[]}');
  });
  const proxy = await proxyTo(healthy.origin, lines);
  expect((await get(proxy)).status).toBe(200);
}

describe("hostile upstreams", () => {
  it("down: 502, the log says it cannot be reached", async () => {
    const lines: string[] = [];
    const proxy = await proxyTo(await closedPortOrigin(), lines);
    const answer = await get(proxy);
    expect(answer).toEqual({
      status: 502,
      body: {
        message: expect.stringContaining("cannot be reached (ECONNREFUSED)"),
        error: { code: "INTERNAL" },
      },
    });
    expect(lines).toEqual([
      expect.stringMatching(
        /^proxy: GET \/v1\/si\/servers: the dashboard service at http:\/\/127\.0\.0\.1:\d+ cannot be reached \(ECONNREFUSED\); answered 502$/,
      ),
    ]);
    // The same proxy again: it is still there.
    expect((await get(proxy)).status).toBe(502);
  });

  it("hangs: 504 after the upstream timeout, the connection to it dropped", async () => {
    const lines: string[] = [];
    const silent = await tcpUpstream((socket) => socket.resume());
    const proxy = await proxyTo(silent.origin, lines, { upstreamTimeoutMs: 300 });
    const answer = await get(proxy);
    expect(answer.status).toBe(504);
    expect(answer.body.message).toContain("no whole answer within 300 ms");
    expect(lines[0]).toMatch(/no whole answer within 300 ms; answered 504$/);
    await expect.poll(() => silent.sockets.every((socket) => socket.closed)).toBe(true);
    await stillServes(lines);
  });

  it("answers garbage: 502, not HTTP", async () => {
    const lines: string[] = [];
    const garbage = await tcpUpstream((socket) => socket.end("\x00\x01garbage that is not HTTP\r\n\r\n"));
    const proxy = await proxyTo(garbage.origin, lines);
    const answer = await get(proxy);
    expect(answer.status).toBe(502);
    expect(answer.body.message).toContain("answered something that is not HTTP");
    await stillServes(lines);
  });

  it("breaks off mid-answer: 502", async () => {
    const lines: string[] = [];
    const broken = await tcpUpstream((socket) =>
      socket.write(
        'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"data"',
        () => socket.destroy(),
      ),
    );
    const proxy = await proxyTo(broken.origin, lines);
    expect((await get(proxy)).status).toBe(502);
    await stillServes(lines);
  });

  it("announces 1 GB: 502 at once, nothing read", async () => {
    const lines: string[] = [];
    const huge = await httpUpstream((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(2 ** 30) });
      res.write("[");
    });
    const proxy = await proxyTo(huge.origin, lines);
    const answer = await get(proxy);
    expect(answer.status).toBe(502);
    expect(answer.body.message).toContain(
      "announced a body of 1073741824 bytes, over the 4194304 the proxy holds",
    );
    await stillServes(lines);
  });

  it("streams an endless answer: 502 once 4 MiB came, the upstream cut off (memory stays bounded)", async () => {
    const lines: string[] = [];
    let sent = 0;
    const endless = await httpUpstream((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        // Bounded: 1 GB at most, were the proxy to read it all.
        while (sent < 2 ** 30 && !res.destroyed && res.write(chunk)) sent += chunk.length;
        if (sent < 2 ** 30 && !res.destroyed) res.once("drain", pump);
      };
      res.on("close", () => res.removeAllListeners("drain"));
      pump();
    });
    const proxy = await proxyTo(endless.origin, lines);
    const answer = await get(proxy);
    expect(answer.status).toBe(502);
    expect(answer.body.message).toContain("sent a body over the 4194304 bytes the proxy holds");
    // What the upstream managed to write before the proxy cut it off: far from 1 GB.
    expect(sent).toBeLessThan(64 * 1024 * 1024);
    await stillServes(lines);
  });

  it("redirects: 502, never followed", async () => {
    const lines: string[] = [];
    const elsewhere = await httpUpstream((_req, res) => res.writeHead(200).end("followed"));
    const redirecting = await httpUpstream((_req, res) =>
      res.writeHead(302, { location: `${elsewhere.origin}/v1/si/servers` }).end(),
    );
    const proxy = await proxyTo(redirecting.origin, lines);
    const answer = await get(proxy);
    expect(answer.status).toBe(502);
    expect(answer.body.message).toContain(`answered 302, a redirect to ${elsewhere.origin}/v1/si/servers`);
    expect(elsewhere.requests).toEqual([]);
    await stillServes(lines);
  });

  it("an API without an upstream: 502 naming the option; outside both APIs: 404", async () => {
    const lines: string[] = [];
    const proxy = await proxyTo(await closedPortOrigin(), lines);
    const rebuild = await fetch(`${proxy.origin}/api/integration/partners/hostpanel/rebuilds`, {
      method: "POST",
    });
    expect(rebuild.status).toBe(502);
    expect(((await rebuild.json()) as { message: string }).message).toContain("--rebuild-upstream URL");
    const outside = await fetch(`${proxy.origin}/elsewhere`);
    expect(outside.status).toBe(404);
  });
});

describe("exchanges at once", () => {
  it("past maxExchanges: 503 with Retry-After: 1, not forwarded; the next is forwarded once one ends", async () => {
    const lines: string[] = [];
    // An upstream that answers when told to: the exchanges it holds stay in flight.
    const waiting: Array<() => void> = [];
    let seen = 0;
    const held = await httpUpstream((_req, res) => {
      seen++;
      waiting.push(() =>
        res.writeHead(200, { "content-type": "application/json" }).end('{"totalCount":0,"data":[]}'),
      );
    });
    const proxy = await proxyTo(held.origin, lines, { maxExchanges: 2 });
    const first = get(proxy);
    const second = get(proxy);
    await expect.poll(() => seen).toBe(2);
    const response = await fetch(`${proxy.origin}/v1/si/servers`, { headers: { authorization: "Bearer t" } });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.json()).toEqual({
      message: "The proxy is already forwarding 2 exchanges; retry shortly",
      error: { code: "INTERNAL" },
    });
    expect(seen).toBe(2);
    expect(lines).toContain(
      "proxy: GET /v1/si/servers: 2 exchanges are already being forwarded; answered 503",
    );
    for (const answer of waiting.splice(0)) answer();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    const third = get(proxy);
    await expect.poll(() => seen).toBe(3);
    for (const answer of waiting.splice(0)) answer();
    expect((await third).status).toBe(200);
  });

  it("a client that goes away mid-body: one log line (not an internal error), and its slot is free again", async () => {
    const lines: string[] = [];
    let seen = 0;
    const healthy = await httpUpstream((_req, res) => {
      seen++;
      res.writeHead(200, { "content-type": "application/json" }).end('{"totalCount":0,"data":[]}');
    });
    const proxy = await proxyTo(healthy.origin, lines, { maxExchanges: 1 });
    const { port } = new URL(proxy.origin);
    const socket = connect(Number(port), "127.0.0.1");
    socket.on("error", () => {});
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.write(
      "POST /v1/si/servers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
    );
    await expect.poll(() => lines.length === 0 && socket.bytesWritten > 0).toBe(true);
    socket.destroy();
    await expect
      .poll(() => lines)
      .toEqual(["proxy: POST /v1/si/servers: the client went away before its body ended; nothing forwarded"]);
    expect((await get(proxy)).status).toBe(200);
    expect(seen).toBe(1);
  });

  it("is checked when the proxy starts", async () => {
    for (const bad of [0, -1, 2.5, Number.NaN]) {
      await expect(startProxyServer({ host: "127.0.0.1", port: 0, maxExchanges: bad })).rejects.toThrow(
        `proxy: maxExchanges must be a positive whole number, got ${bad}`,
      );
    }
  });
});
