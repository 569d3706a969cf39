/**
 * The ceiling: a raw node:http server doing the least a server can do for the same requests.
 * GET answers the body given in BENCH_GET_BODY (the mock's own servers list, byte for byte); POST
 * reads and parses the JSON body and answers 202 with fresh ids, like a rebuild submission.
 * A GET carrying `x-bench-delay-ms: N` is answered N ms later, as a server across a network would
 * be (the SDK section's latency figure).
 * Prints `listening <port>` once ready.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";

const getBody = Buffer.from(process.env.BENCH_GET_BODY ?? "{}");
// `--port N` (as the mock's CLI takes it) or BENCH_PORT.
const portArg = process.argv.indexOf("--port");
const port = Number((portArg >= 0 ? process.argv[portArg + 1] : undefined) ?? process.env.BENCH_PORT ?? 0);

const server = createServer((req, res) => {
  if (req.method === "GET") {
    const answer = () => {
      res.writeHead(200, { "content-type": "application/json", "content-length": getBody.length });
      res.end(getBody);
    };
    const delayMs = Number(req.headers["x-bench-delay-ms"] ?? 0);
    if (delayMs > 0) setTimeout(answer, delayMs);
    else answer();
    return;
  }
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    let status = 202;
    let payload: string;
    try {
      JSON.parse(Buffer.concat(chunks).toString("utf8"));
      payload = JSON.stringify({ requestId: randomUUID(), projectId: randomUUID(), status: "running" });
    } catch {
      status = 400;
      payload = JSON.stringify({ message: "Body is not valid JSON" });
    }
    res.writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(payload),
    });
    res.end(payload);
  });
});
server.keepAliveTimeout = 5_000;
server.listen(port, "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening ${typeof address === "object" && address ? address.port : port}`);
});
process.on("SIGTERM", () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
