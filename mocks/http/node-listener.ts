import type { IncomingMessage, ServerResponse } from "node:http";
import { DomainError } from "../domain/errors.js";
import { isUnchangingAnswer } from "../domain/unchanging.js";
import type { DispatchResult, HeaderReader, MockRequest, MockResponse } from "../routes/types.js";
import type { Dispatcher, RequestMatch } from "./dispatch.js";
import type { Edge } from "./edge.js";
import { busyResponse, errorResponse } from "./error-response.js";
import { jsonChunks } from "./json-chunks.js";

/** One answered request, as `startMockServer`'s `onRequest` gets it. */
export interface RequestLogEntry {
  /** The request's method. */
  method: string;
  /** The request's path (no query). */
  path: string;
  /** The status answered, or `"reset"` when the connection was dropped instead. */
  status: number | "reset";
  /** Real milliseconds from the request to the answer. */
  ms: number;
}

/**
 * An answer of a route whose handler the node server supplies (mocks/http/console-endpoints.ts: the
 * control API's console page and event stream), which only this adapter writes.
 */
export interface NodeAnswer extends MockResponse {
  /** `body` is text of the type `headers` name, written as it is (the console page). */
  text?: true;
  /** Takes over the answer once its status and headers are out (not for HEAD): an event stream. */
  stream?: (res: ServerResponse) => void;
}

export interface NodeListenerOptions {
  /** The origin requests are matched against, whatever Host header the client sent. */
  origin: string;
  /** Host check, the control API's origin check and CORS, in front of the dispatcher. */
  edge: Edge;
  onRequest?: (entry: RequestLogEntry) => void;
  /** Every error while answering that is not the client's (each answered 500, or the connection dropped). */
  onInternalError?: (error: unknown) => void;
  /** Epoch-ms source for the request log's durations (the adapter's, not the domain's). */
  now?: () => number;
  /**
   * Asked before a dispatched answer leaves: a promise while changes are not yet durable (the state
   * file), which the answer waits for; a rejection (the write failed) turns the answer into a 500.
   * Undefined when nothing waits: the answer leaves on the same turn.
   */
  durable?: () => Promise<void> | undefined;
  /**
   * The request bodies held at once, in bytes, across all connections (default 128 MiB): each route
   * bounds one body, this bounds them together. A body that would pass it is answered 503 with
   * `Retry-After: 1`, unread, and its connection closed.
   */
  maxBufferedBodyBytes?: number;
}

/** Two bodies of the largest route's size (a snapshot, 64 MiB), or 128 of the APIs' 1 MiB. */
const DEFAULT_MAX_BUFFERED_BODY_BYTES = 128 * 1024 * 1024;

interface Answer {
  /** The answer goes out with `Connection: close` and the connection ends after it (a body left unread). */
  close: boolean;
}

/**
 * Adapts the dispatcher to node:http: pass the request through the edge, match it once, read the
 * body only up to the matched route's limit, dispatch with that match, write the answer. Nothing a client sends can throw out of
 * here: an unparsable request-target gets 400, a failure while answering 500 (reported).
 */
export function createNodeListener(dispatch: Dispatcher, options: NodeListenerOptions) {
  const now = options.now ?? Date.now;
  const root = new URL("/", options.origin);
  const { edge } = options;
  const budget = options.maxBufferedBodyBytes ?? DEFAULT_MAX_BUFFERED_BODY_BYTES;
  // Bytes of the request bodies held now (of requests not yet over), against `budget`.
  let buffered = 0;

  const internal = (res: ServerResponse, error: unknown) => {
    options.onInternalError?.(error);
    if (!res.headersSent && !res.destroyed) {
      try {
        write(res, errorResponse(error), { close: true }, false);
        return;
      } catch (again) {
        options.onInternalError?.(again);
      }
    }
    res.destroy();
  };

  return (req: IncomingMessage, res: ServerResponse): void => {
    try {
      handle(req, res);
    } catch (error) {
      internal(res, error);
    }
  };

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const started = now();
    const method = req.method ?? "GET";
    const head = method === "HEAD";
    const hasBody = announcesBody(req.rawHeaders);
    const log = (path: string, status: number | "reset") =>
      options.onRequest?.({ method, path, status, ms: now() - started });

    const send = (request: MockRequest, response: MockResponse, answer: Answer) => {
      write(res, response, answer, head, edge.corsHeaders(request), (error) => internal(res, error));
      log(request.url.pathname, response.status);
    };

    const target = parseTarget(req.url ?? "/", root.origin);
    const headers = rawHeaderReader(req.rawHeaders, target?.authority);
    if (!target) {
      const refused = edge.badTarget({ method, headers, body: null }, root);
      write(res, refused.response, { close: hasBody }, head);
      log(req.url ?? "", refused.response.status);
      return;
    }
    const request: MockRequest = { method, url: target.url, headers, body: null };
    const screened = edge.screen(request);
    if (screened) {
      // An unread body cannot be skipped on a kept-alive connection: it ends with this answer.
      write(res, screened.response, { close: hasBody }, head);
      log(request.url.pathname, screened.response.status);
      return;
    }

    const run = (body: Uint8Array | null, matched: RequestMatch | undefined, answer: Answer) => {
      const withBody: MockRequest = { method, url: request.url, headers, body };
      const finish = (result: DispatchResult) => {
        try {
          if (result.kind === "reset") {
            req.socket.destroy();
            log(request.url.pathname, "reset");
            return;
          }
          const response =
            result.kind === "pass" ? dispatch.notMounted(method, request.url) : result.response;
          send(withBody, response, answer);
        } catch (error) {
          internal(res, error);
        }
      };
      const release = (result: DispatchResult) => {
        if (result.kind !== "pass" && result.delayMs > 0) setTimeout(finish, result.delayMs, result);
        else finish(result);
      };
      // No answer tells of a change before the change is durable (what it answers may show it).
      const conclude = (result: DispatchResult) => {
        const waiting = result.kind === "reset" ? undefined : options.durable?.();
        if (waiting)
          waiting.then(
            () => release(result),
            (error: unknown) => internal(res, error),
          );
        else release(result);
      };
      let result: DispatchResult | Promise<DispatchResult>;
      try {
        result = dispatch(withBody, matched);
      } catch (error) {
        // Also when `run` was called by the body's `end` event, where nothing else would catch it.
        internal(res, error);
        return;
      }
      if (result instanceof Promise) result.then(conclude, (error: unknown) => internal(res, error));
      else conclude(result);
    };

    // Without Content-Length or Transfer-Encoding a request has no body (RFC 9112 §6.3): answer at
    // once instead of waiting for the stream's end, which costs several ticks on every GET. The
    // dispatcher then matches the request itself, once.
    if (!hasBody) {
      run(null, undefined, { close: false });
      return;
    }
    // Only a body can fail to arrive (a GET's request ends with its headers): no listener per GET.
    req.on("error", () => res.destroy());
    // The one match: its route's limit bounds the reading, and the dispatcher is handed it back.
    const matched = dispatch.match(method, request.url);
    const limit = matched.bodyLimit;
    const chunks: Buffer[] = [];
    let size = 0;
    // This body's bytes in `buffered`, given back once: when its answer is over (written, however
    // late, or the connection gone: until then the answer may still hold the body), or refused. Not
    // on the request's close: a body refused with 413 is left unread, and its request may not close.
    let held = 0;
    const release = () => {
      buffered -= held;
      held = 0;
    };
    res.once("close", release);
    const onData = (chunk: Buffer) => {
      // What of this chunk is kept: a body is read to one byte past its route's limit at most.
      const kept = Math.min(chunk.length, limit + 1 - size);
      if (buffered + kept > budget) {
        req.off("data", onData);
        req.off("end", onEnd);
        req.pause();
        chunks.length = 0;
        // A body that alone passes the budget would never be taken: 413, as one over its route's
        // limit, not a 503 that invites a retry.
        const alone = held + kept > budget;
        release();
        send(
          request,
          alone
            ? errorResponse(
                new DomainError(
                  "PAYLOAD_TOO_LARGE",
                  `Request body exceeds ${budget} bytes, all this server holds at once`,
                ),
              )
            : busyResponse(`The mock is already reading ${budget} bytes of request bodies`),
          { close: true },
        );
        return;
      }
      buffered += kept;
      held += kept;
      if (size + chunk.length <= limit) {
        chunks.push(chunk);
        size += chunk.length;
        return;
      }
      // One byte past the limit is all the size check needs: stop reading and answer now (413 on
      // every route that reads a body), then close, whatever the client still sends.
      chunks.push(chunk.subarray(0, limit + 1 - size));
      size = limit + 1;
      req.off("data", onData);
      req.off("end", onEnd);
      req.pause();
      run(Buffer.concat(chunks, size), matched, { close: true });
    };
    const onEnd = () => run(size === 0 ? null : Buffer.concat(chunks, size), matched, { close: false });
    req.on("data", onData);
    req.on("end", onEnd);
  }
}

/**
 * The URL a request-target names, on the server's origin, or undefined when it is not a URL.
 * An absolute-form target (`GET http://host/path`) names its own authority, which then stands for
 * the Host header (RFC 9112 §3.2.2).
 */
function parseTarget(target: string, origin: string): { url: URL; authority?: string } | undefined {
  try {
    // An origin-form target is a path (and query) on the origin: appended, it is parsed once, where
    // resolving it against the origin would parse both.
    if (target.startsWith("/") && !target.startsWith("//")) return { url: new URL(origin + target) };
    if (target === "*") return { url: new URL("/*", origin) };
    const absolute = new URL(target);
    if (absolute.protocol !== "http:" && absolute.protocol !== "https:") return undefined;
    // Its path appended to the origin too: `http://host//other/x` names the path `//other/x`, not `other`.
    return { url: new URL(origin + absolute.pathname + absolute.search), authority: absolute.host };
  } catch {
    return undefined;
  }
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
 * Authorization and Content-Type included (node's `req.headers` would drop them). `host`, when
 * given, replaces the Host header (an absolute-form request-target's authority).
 */
function rawHeaderReader(raw: readonly string[], host?: string): HeaderReader {
  return {
    get(name) {
      const wanted = name.toLowerCase();
      if (host !== undefined && wanted === "host") return host;
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
      if (host !== undefined) joined.set("host", host);
      return joined.entries();
    },
  };
}

/**
 * Writes an answer; for HEAD the same status and headers, Content-Length included, and no body.
 * A body too large for one string is streamed in chunks instead (no Content-Length then). A
 * `NodeAnswer`'s text is written as it is, and its stream takes over once the headers are out.
 */
function write(
  res: ServerResponse,
  response: MockResponse,
  { close }: Answer,
  head: boolean,
  extraHeaders?: Readonly<Record<string, string>>,
  onStreamError?: (error: unknown) => void,
): void {
  if (res.headersSent || res.destroyed) return;
  // Object.assign, not spreads: on every answer, and V8 spreads these string-keyed objects slowly.
  const headers: Record<string, string | number> = Object.assign({}, response.headers, extraHeaders);
  if (close) headers.connection = "close";
  if (response.body === undefined) {
    res.writeHead(response.status, headers);
    const open = (response as NodeAnswer).stream;
    if (open && !head) {
      res.flushHeaders();
      open(res);
      return;
    }
    res.end();
    return;
  }
  if ((response as NodeAnswer).text === true && typeof response.body === "string") {
    headers["content-length"] = Buffer.byteLength(response.body);
    res.writeHead(response.status, headers);
    res.end(head ? undefined : response.body);
    return;
  }
  headers["content-type"] = "application/json";
  let payload: string;
  try {
    payload = jsonText(response.body);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    res.writeHead(response.status, headers);
    if (head) res.end();
    else stream(res, jsonChunks(response.body), onStreamError);
    return;
  }
  headers["content-length"] = Buffer.byteLength(payload);
  res.writeHead(response.status, headers);
  res.end(head ? undefined : payload);
}

// The JSON text of each answer given again unchanged (mocks/domain/unchanging.ts), made once.
const texts = new WeakMap<object, string>();

function jsonText(body: unknown): string {
  if (!isUnchangingAnswer(body)) return JSON.stringify(body);
  let text = texts.get(body);
  if (text === undefined) {
    text = JSON.stringify(body);
    texts.set(body, text);
  }
  return text;
}

/** Writes the pieces as the socket takes them (waiting for `drain`), then ends the answer. */
function stream(res: ServerResponse, pieces: Iterator<string>, onError?: (error: unknown) => void): void {
  const pump = () => {
    try {
      for (let next = pieces.next(); !next.done; next = pieces.next()) {
        if (!res.write(next.value)) {
          res.once("drain", pump);
          return;
        }
      }
      res.end();
    } catch (error) {
      onError?.(error);
      res.destroy();
    }
  };
  pump();
}
