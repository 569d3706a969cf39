/**
 * The ceiling: a raw node:http server doing the least a server can do for the same requests.
 * GET answers the body given in BENCH_GET_BODY (the mock's own servers list, byte for byte); POST
 * reads and parses the JSON body and answers 202 with fresh ids, like a rebuild submission.
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
    res.writeHead(200, { "content-type": "application/json", "content-length": getBody.length });
    res.end(getBody);
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
