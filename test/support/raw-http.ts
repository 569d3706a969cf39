// Sends requests fetch would refuse or tidy up: repeated headers, any Content-Type, raw bytes. One
// keep-alive socket, so thousands of requests cost no handshakes.
import { Agent, request } from "node:http";

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
