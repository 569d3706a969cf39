import type { IncomingMessage, ServerResponse } from "node:http";
import { DomainError } from "../domain/errors.js";
import { MAX_BODY_BYTES } from "../routes/body.js";
import type { MockRequest, MockResponse } from "../routes/types.js";
import type { Dispatcher } from "./dispatch.js";
import { errorResponse } from "./error-response.js";

export interface RequestLogEntry {
  method: string;
  path: string;
  status: number | "reset";
  ms: number;
}

export interface NodeListenerOptions {
  /** The origin requests are matched against, whatever Host header the client sent. */
  origin: string;
  onRequest?: (entry: RequestLogEntry) => void;
  /** Epoch-ms source for the request log's durations (the adapter's, not the domain's). */
  now?: () => number;
}

/** Adapts the dispatcher to node:http: buffer the body, translate, write the answer. Nothing else. */
export function createNodeListener(dispatch: Dispatcher, options: NodeListenerOptions) {
  const now = options.now ?? Date.now;
  return (req: IncomingMessage, res: ServerResponse): void => {
    const started = now();
    const run = (body: Uint8Array | null) => {
      const request: MockRequest = {
        method: req.method ?? "GET",
        url: new URL(req.url ?? "/", options.origin),
        headers: rawHeaderReader(req.rawHeaders),
        body,
      };
      dispatch(request).then(
        (result) => {
          const finish = () => {
            if (result.kind === "reset") {
              req.socket.destroy();
              options.onRequest?.({
                method: request.method,
                path: request.url.pathname,
                status: "reset",
                ms: now() - started,
              });
              return;
            }
            const response =
              result.kind === "pass"
                ? errorResponse(new DomainError("NOT_FOUND", `No resource at ${request.url.pathname}`))
                : result.response;
            write(res, response);
            options.onRequest?.({
              method: request.method,
              path: request.url.pathname,
              status: response.status,
              ms: now() - started,
            });
          };
          if (result.kind !== "pass" && result.delayMs > 0) setTimeout(finish, result.delayMs);
          else finish();
        },
        (error: unknown) => write(res, errorResponse(error)),
      );
    };
    req.on("error", () => res.destroy());
    // Without Content-Length or Transfer-Encoding a request has no body (RFC 9112 §6.3): answer at
    // once instead of waiting for the stream's end, which costs several ticks on every GET.
    if (!announcesBody(req.rawHeaders)) {
      run(null);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      // Past the limit the rest is drained unbuffered: the size check only needs to see it was passed.
      if (size > MAX_BODY_BYTES) return;
      chunks.push(chunk);
      size += chunk.length;
    });
    req.on("end", () => run(size === 0 ? null : Buffer.concat(chunks, size)));
  };
}

function announcesBody(raw: readonly string[]): boolean {
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i] as string;
    // Only names of the right length are lower-cased: most headers are skipped without allocating.
    if (key.length === 14 && key.toLowerCase() === "content-length") return true;
    if (key.length === 17 && key.toLowerCase() === "transfer-encoding") return true;
  }
  return false;
}

/**
 * Reads headers straight from `rawHeaders` (name, value, name, value, ...), the form node:http has
 * parsed anyway; repeated headers are joined with ", " as `Headers.get` does, duplicates of
 * Authorization and Content-Type included (node's `req.headers` would drop them).
 */
function rawHeaderReader(raw: readonly string[]): MockRequest["headers"] {
  return {
    get(name) {
      const wanted = name.toLowerCase();
      let found: string | null = null;
      for (let i = 0; i < raw.length; i += 2) {
        const key = raw[i] as string;
        if (key.length === wanted.length && key.toLowerCase() === wanted) {
          const value = raw[i + 1] as string;
          found = found === null ? value : `${found}, ${value}`;
        }
      }
      return found;
    },
    entries() {
      const joined = new Map<string, string>();
      for (let i = 0; i < raw.length; i += 2) {
        const key = (raw[i] as string).toLowerCase();
        const value = raw[i + 1] as string;
        const before = joined.get(key);
        joined.set(key, before === undefined ? value : `${before}, ${value}`);
      }
      return joined.entries();
    },
  };
}

function write(res: ServerResponse, response: MockResponse): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string | number> = { ...response.headers };
  if (response.body === undefined) {
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  const payload = JSON.stringify(response.body);
  headers["content-type"] = "application/json";
  headers["content-length"] = Buffer.byteLength(payload);
  res.writeHead(response.status, headers);
  res.end(payload);
}
