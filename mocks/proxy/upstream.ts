// One request forwarded to a real service, as the proxy does it: the client's bytes out, the
// service's bytes back, nothing decoded or followed. Every way the service can fail the client ends
// in an UpstreamFailure the proxy answers 502 or 504 (decisions/039), never a hang or unbounded memory.
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Readable } from "node:stream";

/** The service's answer, whole: at most `maxBytes` of body were held. */
export interface UpstreamAnswer {
  readonly status: number;
  readonly statusText: string;
  /** As the service sent them, hop-by-hop ones dropped (name, value pairs; a name may repeat). */
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer;
  readonly ms: number;
}

/** Why no answer can be passed on: 504 for `timeout`, 502 for the rest. */
export class UpstreamFailure extends Error {
  override readonly name = "UpstreamFailure";
  constructor(
    readonly kind: "unreachable" | "timeout" | "malformed" | "too-large" | "redirect",
    message: string,
  ) {
    super(message);
  }
}

export interface ForwardOptions {
  readonly method: string;
  readonly url: URL;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer | null;
  /**
   * The rest of a request body larger than the proxy holds: sent on after `body` as it arrives,
   * never held, with the client's own Content-Length (or chunked), so the service judges it.
   */
  readonly rest?: Readable;
  /** Until the whole answer is in. */
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

// RFC 9110 §7.6.1: meaningful for one connection only, never forwarded. Host is the upstream's own.
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
]);

/** `headers` without hop-by-hop ones (and those `Connection` names). */
function endToEnd(headers: readonly (readonly [string, string])[]): [string, string][] {
  const named = new Set(
    headers
      .filter(([name]) => name.toLowerCase() === "connection")
      .flatMap(([, value]) => value.split(",").map((token) => token.trim().toLowerCase())),
  );
  return headers
    .filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase()) && !named.has(name.toLowerCase()))
    .map(([name, value]) => [name, value]);
}

function pairs(raw: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i] as string, raw[i + 1] as string]);
  return out;
}

/** Sends the request and reads the whole answer, or rejects with an UpstreamFailure. */
export function forward(options: ForwardOptions): Promise<UpstreamAnswer> {
  const { url, timeoutMs, maxBytes } = options;
  const started = performance.now();
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of endToEnd(options.headers)) {
    const key = name.toLowerCase();
    if (key === "content-length" && !options.rest) continue;
    const before = headers[key];
    headers[key] = before === undefined ? value : `${before}, ${value}`;
  }
  if (options.body && !options.rest) headers["content-length"] = String(options.body.length);
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (failure: UpstreamFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(failure);
    };
    const timer = setTimeout(
      () => fail(new UpstreamFailure("timeout", `no whole answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const req = send(url, { method: options.method, headers, agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        const where = res.headers.location ? ` to ${String(res.headers.location).slice(0, 200)}` : "";
        fail(
          new UpstreamFailure(
            "redirect",
            `answered ${status}, a redirect${where}, which the proxy does not follow`,
          ),
        );
        return;
      }
      const declared = Number(res.headers["content-length"]);
      if (declared > maxBytes) {
        fail(
          new UpstreamFailure(
            "too-large",
            `announced a body of ${declared} bytes, over the ${maxBytes} the proxy holds`,
          ),
        );
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          fail(new UpstreamFailure("too-large", `sent a body over the ${maxBytes} bytes the proxy holds`));
          return;
        }
        chunks.push(chunk);
      });
      res.on("error", () => fail(new UpstreamFailure("malformed", "broke off its answer")));
      res.on("aborted", () => fail(new UpstreamFailure("malformed", "broke off its answer")));
      res.on("end", () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({
          status,
          statusText: res.statusMessage ?? "",
          headers: endToEnd(pairs(res.rawHeaders)),
          body: Buffer.concat(chunks, size),
          ms: Math.round(performance.now() - started),
        });
      });
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      const code = error.code ?? "";
      // node's parser names what it could not read as HTTP; everything else is a connection failure.
      const malformed = code.startsWith("HPE_") || code === "ECONNRESET";
      fail(
        new UpstreamFailure(
          malformed ? "malformed" : "unreachable",
          malformed
            ? `answered something that is not HTTP, or dropped the connection (${code})`
            : `cannot be reached (${code || error.message})`,
        ),
      );
    });
    const { rest } = options;
    if (!rest) {
      req.end(options.body ?? undefined);
      return;
    }
    if (options.body) req.write(options.body);
    rest.on("error", () => fail(new UpstreamFailure("unreachable", "could not be sent the whole request")));
    rest.pipe(req);
    rest.resume();
  });
}
