// Type-only imports: this module must still load where node:http does not exist, because the
// webhooks entry point re-exports it.
import type { IncomingMessage, ServerResponse } from "node:http";
import { concatBytes, declaredLength, jsonResponse, MAX_BODY_BYTES, tooLarge } from "./body.js";
import type { WebhookRequestHandler } from "./handler.js";

export type NodeRequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Set by frameworks that consume the stream: `body` by body parsers, `rawBody` by e.g. Cloud Functions. */
type FrameworkRequest = IncomingMessage & { body?: unknown; rawBody?: unknown };

const TOO_LARGE = Symbol("too large");

/**
 * Adapts a fetch-style handler to a `node:http` request listener (also usable as an Express or
 * Connect route). It reads the raw body (at most 1 MiB, else 413 without calling the handler),
 * calls the handler and writes its Response. It never throws: failures become a 500.
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
    await writeResponse(res, response);
  } catch {
    res.destroy();
  }
}

async function handle(handler: WebhookRequestHandler, req: FrameworkRequest): Promise<Response> {
  const body = req.readableEnded ? consumedBody(req) : await readBody(req);
  if (body === TOO_LARGE) return tooLarge();
  if (body === undefined) {
    return jsonResponse(500, {
      error:
        "the request body was already consumed and parsed by another middleware; give this handler " +
        'the raw body, e.g. with express.raw({ type: "application/json" }) instead of express.json()',
    });
  }
  const method = req.method ?? "GET";
  return handler(
    new Request(requestUrl(req), {
      method,
      headers: requestHeaders(req),
      ...(method === "GET" || method === "HEAD" ? {} : { body }),
    }),
  );
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

function readBody(req: IncomingMessage): Promise<Uint8Array<ArrayBuffer> | typeof TOO_LARGE> {
  const declared = declaredLength(req.headers["content-length"]);
  // Node discards an unread request body once the response has been sent.
  if (declared !== undefined && declared > MAX_BODY_BYTES) return Promise.resolve(TOO_LARGE);
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const stop = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    const onData = (chunk: Uint8Array | string) => {
      const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
      size += bytes.length;
      if (size > MAX_BODY_BYTES) {
        stop();
        // Keep the stream flowing so the rest is discarded and the 413 can be read by the client,
        // rather than closing a socket it is still writing to.
        req.resume();
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = () => {
      stop();
      resolve(concatBytes(chunks, size));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    const onClose = () => {
      stop();
      reject(new Error("the request was closed before its body was complete"));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
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

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const body = new Uint8Array(await response.arrayBuffer());
  res.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  res.end(body);
}
