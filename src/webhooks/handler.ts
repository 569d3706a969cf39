import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { checkNumber } from "../core/options.js";
import { startTimer } from "../core/timers.js";
import { concatBytes, declaredLength, jsonResponse, MAX_BODY_BYTES, tooLarge } from "./body.js";
import { WebhookPayloadError, WebhookVerificationError } from "./errors.js";
import { parseCallbackBody } from "./parse.js";
import type { RebuildCompletedCallback } from "./schema.js";
import { createMemoryDeliveryStore, type DeliveryStore } from "./store.js";
import { encodeWebhookApiKey, verifyApiKey } from "./verify.js";

/** The default time `onCompleted` gets: below the 10 s the service waits before it retries. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 8000;

const TOO_SLOW = Symbol("too slow");

/** What `createRebuildWebhookHandler` takes: the key, what to do with an event, and its limits. */
export interface RebuildWebhookHandlerOptions {
  /** The partner's webhook API key: a callback must carry it in `X-API-Key` (compared in constant time). */
  readonly webhookApiKey: string;
  /**
   * Called once per delivered event. Throwing answers 500, so the service retries the delivery.
   * `signal` aborts when `timeoutMs` runs out: stop there (the answer is already a 500, and the
   * service's retry will call this again); a late success is still remembered.
   */
  readonly onCompleted: (
    event: RebuildCompletedCallback,
    context: { readonly signal: AbortSignal },
  ) => void | Promise<void>;
  /** Where handled deliveries are remembered; in memory (10,000 most recent, 2 MiB) by default. */
  readonly store?: DeliveryStore;
  /**
   * Time allowed to `onCompleted` and the store for one delivery, in ms. Default 8,000, below the
   * service's 10 s delivery timeout, so the service gets the 500 and retries rather than timing
   * out; copies of the event that wait behind it go ahead at once. The request's body must also
   * arrive within this time (else 408). `Infinity` for no limit; a value above 2^31 - 1 ms (about
   * 24.8 days) is read as that. Anything but a number above 0 is a TypeError.
   */
  readonly timeoutMs?: number;
}

/** A fetch-style handler: takes a `Request`, resolves to the `Response` to send (it never rejects). */
export type WebhookRequestHandler = (request: Request) => Promise<Response>;

/**
 * A fetch-style handler (Request → Response) for the completion callback, for any runtime with
 * the Fetch API. It answers 405 or 401 without reading the body, 413, 408 (the body not all in
 * within `timeoutMs`) or 400 before calling `onCompleted`, 500 when `onCompleted` or the store throws or runs out of time, and 200
 * `{ "received": true }` otherwise, including for a repeated delivery of an event already handled.
 */
export function createRebuildWebhookHandler(options: RebuildWebhookHandlerOptions): WebhookRequestHandler {
  const expectedKey = encodeWebhookApiKey("createRebuildWebhookHandler", options.webhookApiKey);
  const { onCompleted } = options;
  if (typeof onCompleted !== "function") throw new TypeError("onCompleted must be a function");
  // Checked as the clients check theirs.
  const timeoutMs = checkNumber("timeoutMs", options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS);
  const store = options.store ?? createMemoryDeliveryStore();
  const inFlight = new Map<string, Promise<void>>();

  // Copies of one delivery are handled one at a time. A copy that arrives while another is being
  // handled waits for it, then re-checks the store: after a success it is acknowledged without a
  // second call; after a failure or a timeout it is handled itself, as the retry the service would
  // send anyway.
  async function deliver(event: RebuildCompletedCallback): Promise<void> {
    const key = deliveryKey(event);
    let running = inFlight.get(key);
    while (running !== undefined) {
      await running;
      running = inFlight.get(key);
    }
    let release = () => {};
    inFlight.set(
      key,
      new Promise<void>((resolve) => {
        release = resolve;
      }),
    );
    const controller = new AbortController();
    const work = (async () => {
      if (await store.has(key)) return;
      await onCompleted(event, { signal: controller.signal });
      await store.add(key);
    })();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        work,
        new Promise<never>((_, reject) => {
          if (timeoutMs === Number.POSITIVE_INFINITY) return;
          timer = startTimer(timeoutMs, () => {
            const reason = new DOMException(`onCompleted took longer than ${timeoutMs} ms`, "TimeoutError");
            controller.abort(reason);
            reject(reason);
          });
        }),
      ]);
    } finally {
      clearTimeout(timer);
      // What it does after a timeout is its own business; nobody awaits it any more.
      work.catch(() => {});
      inFlight.delete(key);
      release();
    }
  }

  return async (request) => {
    if (request.method !== "POST") {
      return jsonResponse(405, { error: `method ${request.method} is not allowed` }, { allow: "POST" });
    }
    // The key comes before reading the body, so an unauthenticated sender cannot make the receiver
    // buffer anything (toNodeHandler hands the body over unread, as a stream).
    try {
      verifyApiKey(request.headers, expectedKey);
    } catch (error) {
      if (error instanceof WebhookVerificationError) return jsonResponse(401, { error: error.message });
      throw error;
    }
    let body: Uint8Array | typeof TOO_SLOW | undefined;
    try {
      body = await readBody(request, timeoutMs);
    } catch {
      return jsonResponse(400, { error: "the request body could not be read" });
    }
    if (body === undefined) return tooLarge();
    if (body === TOO_SLOW) {
      return jsonResponse(408, { error: `the request body did not arrive within ${timeoutMs} ms` });
    }
    let event: RebuildCompletedCallback;
    try {
      event = parseCallbackBody(body);
    } catch (error) {
      if (error instanceof WebhookPayloadError) return jsonResponse(400, { error: error.message });
      throw error;
    }
    try {
      await deliver(event);
    } catch {
      // The application's error stays private; the service only needs to know to retry.
      return jsonResponse(500, { error: "the callback could not be processed" });
    }
    return jsonResponse(200, { received: true });
  };
}

// `<status>:<request_id>`; a long request_id is hashed, so that no sender can make a key (held in
// memory, sent to a shared store) large. The hashed kind is `<status>#sha256:<hex>`: no status has a
// `:` or `#`, so the two kinds never meet, whatever a request_id holds.
function deliveryKey(event: RebuildCompletedCallback): string {
  const id = event.request_id;
  return id.length > 100
    ? `${event.status}#sha256:${bytesToHex(sha256(utf8ToBytes(id)))}`
    : `${event.status}:${id}`;
}

/**
 * The body's bytes; undefined when it exceeds MAX_BODY_BYTES, TOO_SLOW when it has not all arrived
 * within `timeoutMs` (reading stops there, and the stream is cancelled).
 */
async function readBody(
  request: Request,
  timeoutMs: number,
): Promise<Uint8Array | typeof TOO_SLOW | undefined> {
  const declared = declaredLength(request.headers.get("content-length"));
  if (declared !== undefined && declared > MAX_BODY_BYTES) return undefined;
  if (request.body === null) return new Uint8Array();
  const reader = request.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof TOO_SLOW>((resolve) => {
    if (timeoutMs < Number.POSITIVE_INFINITY) timer = startTimer(timeoutMs, () => resolve(TOO_SLOW));
  });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const read = await Promise.race([reader.read(), late]);
      if (read === TOO_SLOW || size + (read.value?.length ?? 0) > MAX_BODY_BYTES) {
        await reader.cancel().catch(() => {});
        return read === TOO_SLOW ? read : undefined;
      }
      if (read.done) return concatBytes(chunks, size);
      size += read.value.length;
      chunks.push(read.value);
    }
  } finally {
    clearTimeout(timer);
  }
}
