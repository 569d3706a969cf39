import { concatBytes, declaredLength, jsonResponse, MAX_BODY_BYTES, tooLarge } from "./body.js";
import { WebhookPayloadError, WebhookVerificationError } from "./errors.js";
import { parseCallbackBody } from "./parse.js";
import type { RebuildCompletedCallback } from "./schema.js";
import { createMemoryDeliveryStore, type DeliveryStore } from "./store.js";
import { encodeWebhookApiKey, verifyApiKey } from "./verify.js";

export interface RebuildWebhookHandlerOptions {
  readonly webhookApiKey: string;
  /**
   * Called once per delivered event. Throwing answers 500, so the service retries the delivery.
   * The service waits 10 s for an answer: hand long work to a queue rather than awaiting it here.
   */
  readonly onCompleted: (event: RebuildCompletedCallback) => void | Promise<void>;
  /** Where handled deliveries are remembered; in memory (10,000 most recent) by default. */
  readonly store?: DeliveryStore;
}

export type WebhookRequestHandler = (request: Request) => Promise<Response>;

/**
 * A fetch-style handler (Request → Response) for the completion callback, for any runtime with
 * the Fetch API. It answers 405, 401, 413 or 400 before calling `onCompleted`, 500 when
 * `onCompleted` or the store throws, and 200 `{ "received": true }` otherwise, including for a
 * repeated delivery of an event already handled.
 */
export function createRebuildWebhookHandler(options: RebuildWebhookHandlerOptions): WebhookRequestHandler {
  const expectedKey = encodeWebhookApiKey(options.webhookApiKey);
  const { onCompleted } = options;
  if (typeof onCompleted !== "function") throw new TypeError("onCompleted must be a function");
  const store = options.store ?? createMemoryDeliveryStore();
  const inFlight = new Map<string, Promise<void>>();

  // Copies of one delivery are handled one at a time. A copy that arrives while another is being
  // handled waits for it, then re-checks the store: after a success it is acknowledged without a
  // second call; after a failure it is handled itself, as the retry the service would send anyway.
  async function deliver(event: RebuildCompletedCallback): Promise<void> {
    const key = `${event.status}:${event.request_id}`;
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
    try {
      if (await store.has(key)) return;
      await onCompleted(event);
      await store.add(key);
    } finally {
      inFlight.delete(key);
      release();
    }
  }

  return async (request) => {
    if (request.method !== "POST") {
      return jsonResponse(405, { error: `method ${request.method} is not allowed` }, { allow: "POST" });
    }
    // Authentication comes before reading the body, so an unauthenticated sender cannot make the
    // receiver buffer a megabyte.
    try {
      verifyApiKey(request.headers, expectedKey);
    } catch (error) {
      if (error instanceof WebhookVerificationError) return jsonResponse(401, { error: error.message });
      throw error;
    }
    let body: Uint8Array | undefined;
    try {
      body = await readBody(request);
    } catch {
      return jsonResponse(400, { error: "the request body could not be read" });
    }
    if (body === undefined) return tooLarge();
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

/** The body's bytes, or undefined when it exceeds MAX_BODY_BYTES (reading stops there). */
async function readBody(request: Request): Promise<Uint8Array | undefined> {
  const declared = declaredLength(request.headers.get("content-length"));
  if (declared !== undefined && declared > MAX_BODY_BYTES) return undefined;
  if (request.body === null) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return concatBytes(chunks, size);
    size += value.length;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
}
