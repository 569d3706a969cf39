// The node:http adapter's own reading of a request: headers straight from rawHeaders (repeated ones
// joined, as `Headers.get` does), no wait for a body that was never announced, and bodies sent
// with Content-Length or chunked read whole.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMockServer, startMockServer } from "../../mocks/node.js";

let server: RunningMockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0 });
});
afterAll(() => server.close());

/** Sends `lines` (CRLF-joined, then a blank line and `body`) on a fresh socket; resolves to the status and body. */
function raw(lines: string[], body = ""): Promise<{ status: number; body: string }> {
  const { port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1");
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
    });
    socket.on("error", reject);
    socket.on("end", () => {
      const [head = "", ...rest] = text.split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), body: rest.join("\r\n\r\n") });
    });
    socket.end(`${[...lines, "Connection: close"].join("\r\n")}\r\n\r\n${body}`);
  });
}

describe("node listener", () => {
  it("answers a GET without a body at once, reading Authorization whatever its spelling", async () => {
    const answer = await raw([
      "GET /v1/si/servers HTTP/1.1",
      "Host: 127.0.0.1",
      "AUTHORIZATION: Bearer mock-token-unrestricted",
    ]);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ totalCount: 3 });
  });

  it("joins a repeated Authorization header, so two tokens are one malformed value (401)", async () => {
    const answer = await raw([
      "GET /v1/si/servers HTTP/1.1",
      "Host: 127.0.0.1",
      "Authorization: Bearer mock-token-unrestricted",
      "Authorization: Bearer mock-token-manage",
    ]);
    expect(answer.status).toBe(401);
  });

  it("reads a chunked body whole", async () => {
    const json = JSON.stringify({ sourceUrl: "https://chunked.example.org/" });
    const half = Math.floor(json.length / 2);
    const chunk = (text: string) => `${text.length.toString(16)}\r\n${text}\r\n`;
    const answer = await raw(
      [
        "POST /api/integration/partners/hostpanel/rebuilds HTTP/1.1",
        "Host: 127.0.0.1",
        "X-Partner-Id: 1001",
        "X-API-Key: mock-rebuild-key-1001",
        "Content-Type: application/json",
        "Transfer-Encoding: chunked",
      ],
      `${chunk(json.slice(0, half))}${chunk(json.slice(half))}0\r\n\r\n`,
    );
    expect(answer.status).toBe(202);
  });

  it("reads a Content-Length body and records headers lower-cased and joined in the sink", async () => {
    const body = JSON.stringify({ hello: "sink" });
    const sent = await raw(
      [
        "POST /__mock/webhook-sink/4242 HTTP/1.1",
        "Host: 127.0.0.1",
        "Content-Type: application/json",
        `Content-Length: ${body.length}`,
        "X-Trace: a",
        "x-trace: b",
      ],
      body,
    );
    expect(sent.status).toBe(200);
    const list = await raw(["GET /__mock/webhook-sink/4242 HTTP/1.1", "Host: 127.0.0.1"]);
    const [entry] = JSON.parse(list.body).data;
    expect(entry.body).toEqual({ hello: "sink" });
    expect(entry.headers["x-trace"]).toBe("a, b");
  });
});
