import { request } from "node:http";
import { createServer } from "node:net";

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** One request on a fresh connection: the status and body, or undefined when it could not connect. */
export function getOnce(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string } | undefined> {
  return new Promise((resolve) => {
    const req = request(url, { headers, agent: false, timeout: 2000 }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", () => resolve(undefined));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(undefined));
    req.end();
  });
}

export async function sendJson(
  url: string,
  method: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<number> {
  const response = await fetch(url, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: body === undefined ? null : JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

/**
 * Polls `url` until it answers 200, every `intervalMs`, for at most `timeoutMs`; returns when it
 * did (performance.now() ms). Throws with `describe()` when it never did or `exited()` turned true.
 */
export async function waitFor200(
  url: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; intervalMs: number; exited: () => boolean; describe: () => string },
): Promise<number> {
  const deadline = performance.now() + options.timeoutMs;
  while (performance.now() < deadline) {
    const answer = await getOnce(url, headers);
    if (answer?.status === 200) return performance.now();
    if (options.exited()) throw new Error(`server exited before answering ${url}:\n${options.describe()}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
  }
  throw new Error(`no 200 from ${url} within ${options.timeoutMs} ms:\n${options.describe()}`);
}
