// Responses too large to hold, and responses that never end. A body is counted as it streams,
// after decompression, and abandoned the moment it passes `maxResponseBytes`: a gzip bomb costs
// about the limit in memory, one attempt, and surfaces as ResponseTooLargeError (not a
// ConnectionError: an answer did arrive), never retried.
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { ConnectionError, ResponseTooLargeError, SdkError, TimeoutError } from "../../../src/index.js";
import { misbehaving, rejection } from "./server.js";

const MiB = 1024 * 1024;

/**
 * About 640 KB of gzip that inflates to 640 MiB of zeros: one 16 MiB member compressed once,
 * repeated 40 times (gzip allows concatenated members, and fetch decodes them all).
 */
const member = gzipSync(Buffer.alloc(16 * MiB), { level: 9 });
const BOMB = Buffer.concat(Array.from({ length: 40 }, () => member));
const INFLATED = 40 * 16 * MiB;

let sampler: ReturnType<typeof setInterval> | undefined;
afterEach(() => {
  clearInterval(sampler);
});

/** Samples this process's memory every few ms; `peak()` is the largest growth seen over `start`. */
function watchMemory() {
  const start = process.memoryUsage();
  let rss = 0;
  let heap = 0;
  const sample = () => {
    const now = process.memoryUsage();
    rss = Math.max(rss, now.rss - start.rss);
    heap = Math.max(heap, now.heapUsed + now.arrayBuffers - start.heapUsed - start.arrayBuffers);
  };
  sampler = setInterval(sample, 5);
  return {
    peak: () => {
      sample();
      return { rss, heap };
    },
  };
}

describe("a gzip bomb", () => {
  it(`(${Math.round(BOMB.length / 1000)} kB inflating to ${INFLATED / MiB} MiB) is cut off at maxResponseBytes: one attempt, memory near the cap`, async () => {
    expect(BOMB.length).toBeLessThan(700_000);
    const m = await misbehaving((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      res.end(BOMB);
    });
    const memory = watchMemory();
    const error = await rejection(m.dashboard().servers.list());
    const { rss, heap } = memory.peak();
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({
      status: 200,
      method: "GET",
      path: "/v1/si/servers",
      maxResponseBytes: 4 * MiB,
      message: `GET /v1/si/servers answered 200 with a body over ${4 * MiB} bytes`,
    });
    expect(m.requests).toHaveLength(1);
    // The default cap is 4 MiB; holding the whole body would take 640 MiB (and its string twice that).
    expect(heap).toBeLessThan(64 * MiB);
    expect(rss).toBeLessThan(160 * MiB);
  });

  it("with a lower maxResponseBytes, the call stops there", async () => {
    const m = await misbehaving((_req, res) => {
      res.writeHead(201, { "content-type": "application/json", "content-encoding": "gzip" });
      res.end(BOMB);
    });
    const error = await rejection(
      m.dashboard({ maxResponseBytes: 1000 }).apiTokens.create({ name: "x", claims: [] }),
    );
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ status: 201, method: "POST", maxResponseBytes: 1000 });
    expect(m.requests).toHaveLength(1);
  });
});

describe("a large body without compression", () => {
  it("streamed without a length: cut off past the cap, also for an error status, not retried", async () => {
    const m = await misbehaving((_req, res) => {
      res.writeHead(503, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, "x");
      let sent = 0;
      const pump = () => {
        while (sent < 8 * MiB) {
          sent += chunk.length;
          if (!res.write(chunk)) return res.once("drain", pump);
        }
        res.end();
      };
      pump();
    });
    const error = await rejection(
      m.rebuild({ maxResponseBytes: MiB }).submit({ sourceUrl: "https://a.example.com/" }),
    );
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ status: 503, maxResponseBytes: MiB });
    expect(m.requests).toHaveLength(1);
  });

  it("a body of exactly maxResponseBytes is read", async () => {
    const body = JSON.stringify({ totalCount: 0, data: [], pad: "" });
    const padded = body.replace('"pad":""', `"pad":"${"p".repeat(1000 - body.length)}"`);
    expect(padded.length).toBe(1000);
    const m = await misbehaving((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(padded);
    });
    await expect(m.dashboard({ maxResponseBytes: 1000 }).servers.list()).resolves.toMatchObject({
      totalCount: 0,
    });
  });

  it.each([0, -1, Number.NaN, "1000" as never])(
    "refuses a maxResponseBytes of %s",
    async (maxResponseBytes) => {
      const m = await misbehaving(() => {});
      expect(() => m.dashboard({ maxResponseBytes })).toThrow(
        new TypeError("DashboardClient: maxResponseBytes must be a number of bytes, 1 or more, or Infinity"),
      );
    },
  );
});

describe("a server that stalls", () => {
  it("after the headers: TimeoutError naming method, host and path, retried for a safe call", async () => {
    const m = await misbehaving((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"totalCount":');
      // …and nothing more.
    });
    const error = await rejection(m.dashboard({ timeoutMs: 200, maxRetries: 1 }).servers.list({ page: 3 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe(`GET ${m.origin}/v1/si/servers timed out after 200 ms`);
    expect(m.requests).toHaveLength(2);
  });

  it("before answering an unsafe call: one attempt only", async () => {
    const m = await misbehaving(() => {});
    const error = await rejection(
      m.dashboard({ timeoutMs: 200 }).apiTokens.create({ name: "x", claims: [] }),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(m.requests).toHaveLength(1);
  });
});
