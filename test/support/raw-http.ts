// Sends requests fetch would refuse or tidy up: repeated headers, any Content-Type, raw bytes. One
// keep-alive socket, so thousands of requests cost no handshakes.
import { Agent, request } from "node:http";
import { connect } from "node:net";

export interface RawRequest {
  method: string;
  /** From the origin on, query included; already percent-encoded. */
  path: string;
  /** In order; a name given twice is sent as two header lines. */
  headers: readonly (readonly [string, string])[];
  body: Uint8Array | null;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const ANSWER_TIMEOUT_MS = 10_000;

export function rawClient(origin: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(origin);
  const send = (req: RawRequest): Promise<RawAnswer> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of req.headers) {
        const before = headers[name];
        headers[name] =
          before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
      }
      const outgoing = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method: req.method,
          path: req.path,
          headers,
          timeout: ANSWER_TIMEOUT_MS,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString("utf8"),
            }),
          );
          res.on("error", reject);
        },
      );
      outgoing.on("timeout", () => outgoing.destroy(new Error(`no answer in ${ANSWER_TIMEOUT_MS} ms`)));
      outgoing.on("error", reject);
      outgoing.end(req.body ?? undefined);
    });
  return { send, close: () => agent.destroy() };
}

export interface SocketAnswer {
  status: number;
  /** Lower-case names; the last value of a repeated header. */
  headers: Record<string, string>;
  body: string;
  /** Whether the server closed the connection (rather than the timeout ending the wait). */
  closedByServer: boolean;
}

/**
 * Writes `text` (a request exactly as given, malformed or not) on a fresh socket to 127.0.0.1:`port`
 * and reads the first answer until the server closes the connection, or for at most `waitMs`
 * after the answer is complete. `keepWriting` keeps sending chunks of an endless chunked body
 * until the server closes (bounded by `maxBytes`).
 */
export function socketExchange(
  port: number,
  text: string,
  options: { waitMs?: number; keepWriting?: { chunk: string; maxBytes: number } } = {},
): Promise<SocketAnswer & { bytesWritten: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    let done = false;
    let bytesWritten = 0;
    const finish = (closedByServer: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const [head = "", ...rest] = received.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({
        status: Number(statusLine.split(" ")[1]),
        headers,
        body: rest.join("\r\n\r\n"),
        closedByServer,
        bytesWritten,
      });
    };
    const timer = setTimeout(() => finish(false), options.waitMs ?? 10_000);
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    socket.on("end", () => finish(true));
    socket.on("close", () => finish(true));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      // A reset after the answer arrived still counts as the server closing.
      if (received !== "" || error.code === "ECONNRESET" || error.code === "EPIPE") finish(true);
      else reject(error);
    });
    socket.write(text);
    bytesWritten += Buffer.byteLength(text);
    const writing = options.keepWriting;
    if (writing) {
      const pump = () => {
        while (!done && bytesWritten < writing.maxBytes) {
          bytesWritten += writing.chunk.length;
          if (!socket.write(writing.chunk)) {
            socket.once("drain", pump);
            return;
          }
        }
      };
      pump();
    }
  });
}
