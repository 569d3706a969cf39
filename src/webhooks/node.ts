// Type-only imports: this module must still load where node:http does not exist, because the
// webhooks entry point re-exports it.
import type { IncomingMessage, ServerResponse } from "node:http";
import { declaredLength, jsonResponse, MAX_BODY_BYTES, tooLarge } from "./body.js";
import type { WebhookRequestHandler } from "./handler.js";

/** A `node:http` request listener (`http.createServer(listener)`, or an Express or Connect route). */
export type NodeRequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Set by frameworks that consume the stream: `body` by body parsers, `rawBody` by e.g. Cloud Functions. */
type FrameworkRequest = IncomingMessage & { body?: unknown; rawBody?: unknown };

const TOO_LARGE = Symbol("too large");

/**
 * How long a connection may keep sending a body nobody reads once its answer is out (a 401 to a
 * wrong key, a 413): enough for an honest sender to finish, then the socket is closed.
 */
const UNREAD_BODY_GRACE_MS = 1000;

/**
 * Adapts a fetch-style handler to a `node:http` request listener (also usable as an Express or
 * Connect route). The handler gets the body unread, as a stream: the receiver's handler checks
 * `X-API-Key` first and reads nothing for a wrong key (a declared Content-Length over 1 MiB gets
 * 413 before the handler runs). When the answer goes out before the body was fully received (a
 * 401, a 413, the receiver's 408 to a body still arriving at its `timeoutMs`), the connection is
 * closed (after a short grace), so a stalled sender holds nothing. It never throws:
 * failures become a 500.
 */
export function toNodeHandler(handler: WebhookRequestHandler): NodeRequestListener {
  if (typeof handler !== "function") throw new TypeError("handler must be a function");
  return (req, res) => {
    void respond(handler, req, res);
  };
}

async function respond(handler: WebhookRequestHandler, req: FrameworkRequest, res: ServerResponse) {
  let response: Response;
  try {
    response = await handle(handler, req);
  } catch {
    response = jsonResponse(500, { error: "the callback could not be processed" });
  }
  try {
    await writeResponse(req, res, response);
  } catch {
    res.destroy();
  }
}

async function handle(handler: WebhookRequestHandler, req: FrameworkRequest): Promise<Response> {
  const method = req.method ?? "GET";
  let body: BodyInit | undefined;
  let release = () => {};
  if (req.readableEnded) {
    const kept = consumedBody(req);
    if (kept === TOO_LARGE) return tooLarge();
    if (kept === undefined) {
      return jsonResponse(500, {
        error:
          "the request body was already consumed and parsed by another middleware; give this handler " +
          'the raw body, e.g. with express.raw({ type: "application/json" }) instead of express.json()',
      });
    }
    body = kept;
  } else {
    const declared = declaredLength(req.headers["content-length"]);
    if (declared !== undefined && declared > MAX_BODY_BYTES) return tooLarge();
    ({ stream: body, release } = bodyStream(req));
  }
  const hasBody = method !== "GET" && method !== "HEAD";
  try {
    return await handler(
      new Request(requestUrl(req), {
        method,
        headers: requestHeaders(req),
        ...(hasBody ? { body, duplex: "half" } : {}),
      } as RequestInit),
    );
  } finally {
    // The handler has answered: what it left unread is not queued for it any more.
    release();
  }
}

/** The raw body a framework kept after reading the stream, if it kept one. */
function consumedBody(req: FrameworkRequest): Uint8Array<ArrayBuffer> | typeof TOO_LARGE | undefined {
  for (const candidate of [req.rawBody, req.body]) {
    const bytes =
      typeof candidate === "string"
        ? new TextEncoder().encode(candidate)
        : candidate instanceof Uint8Array
          ? new Uint8Array(candidate)
          : undefined;
    if (bytes !== undefined) return bytes.length > MAX_BODY_BYTES ? TOO_LARGE : bytes;
  }
  return undefined;
}

/**
 * The request body as a web stream that reads from `req` only as the handler reads it (no queue
 * of its own: highWaterMark 0), so a handler that answers without reading reads nothing. Once the
 * stream is done (ended, failed or cancelled), or `release`d when the handler has answered, it lets
 * go of `req`, which may go on emitting what the sender still sends.
 */
function bodyStream(req: IncomingMessage): { stream: ReadableStream<Uint8Array>; release: () => void } {
  let listening = false;
  let stop = () => {};
  let fail = (_error: Error) => {};
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!listening) {
          listening = true;
          const onData = (chunk: Uint8Array | string) => {
            controller.enqueue(
              typeof chunk === "string" ? new TextEncoder().encode(chunk) : new Uint8Array(chunk),
            );
            req.pause();
          };
          const onEnd = () => {
            stop();
            controller.close();
          };
          fail = (error: Error) => {
            stop();
            controller.error(error);
          };
          const onClose = () => fail(new Error("the request was closed before its body was complete"));
          stop = () => {
            req.off("data", onData);
            req.off("end", onEnd);
            req.off("error", fail);
            req.off("close", onClose);
          };
          req.on("data", onData);
          req.on("end", onEnd);
          req.on("error", fail);
          req.on("close", onClose);
        }
        req.resume();
      },
      cancel() {
        stop();
        req.pause();
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, release: () => fail(new Error("the answer was already sent")) };
}

function requestUrl(req: IncomingMessage): URL {
  const encrypted = (req.socket as { encrypted?: unknown } | undefined)?.encrypted === true;
  const origin = `${encrypted ? "https" : "http"}://${req.headers.host ?? "localhost"}`;
  try {
    return new URL(req.url ?? "/", origin);
  } catch {
    // A malformed Host header must not stop the request: the handler does not route on the URL.
    return new URL("http://localhost/");
  }
}

function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    // HTTP/2 pseudo-headers (:path, :method) are not valid Fetch header names.
    if (name.startsWith(":") || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

async function writeResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  const body = new Uint8Array(await response.arrayBuffer());
  res.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  // The answer came before the whole body (a wrong key, a body too large): this connection is not
  // kept. What still arrives is discarded, and a sender that stalls is cut off after a grace.
  const unread = !req.complete && !req.readableEnded;
  if (unread) res.setHeader("connection", "close");
  res.end(body, () => {
    if (!unread) return;
    req.resume();
    const timer = setTimeout(() => req.socket?.destroy(), UNREAD_BODY_GRACE_MS);
    timer.unref?.();
    req.socket?.once("close", () => clearTimeout(timer));
  });
}
