import { operations } from "../../src/generated/mock-control-validators.js";
import type { CallbackTransport } from "../domain/rebuild/index.js";
import { remembered } from "../domain/remembered.js";
import { readPathParameters } from "../domain/validation/parameters.js";

/** The service gives a receiver this long to answer (contract-decisions: "within 10 s"). */
export const CALLBACK_TIMEOUT_MS = 10_000;

const SINK_PATH = /^\/__mock\/webhook-sink\/([^/]*)$/;
const sinkParameters = operations.receiveSinkCallback.path;

/** Where a webhook URL points: the world's own sink (for a partner id that can exist, or not), elsewhere, or nowhere. */
type Target =
  | { kind: "invalid" }
  | { kind: "sink"; partnerId: number }
  | { kind: "no sink" }
  | { kind: "remote" };

/**
 * A world's default way of sending callbacks: to its own built-in sink in-process (so it works the
 * same under MSW, in the browser and in the server, with nothing listening), to any other URL with
 * `fetch`, looked up per call so that an MSW server started later intercepts it.
 */
export function createCallbackTransport({
  origin,
  timeoutMs,
  sink,
}: {
  /** The world's origin: `<origin>/__mock/webhook-sink/<partnerId>` is its own sink. */
  origin: string;
  timeoutMs: number;
  sink: (partnerId: number, headers: Readonly<Record<string, string>>, body: string) => void;
}): CallbackTransport {
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new RangeError(`callbackTimeoutMs must be a positive number of ms, got ${timeoutMs}`);
  }
  const own = new URL(origin).origin;
  // Where a webhook URL points, remembered: a partner's callbacks all go to the same few URLs, and
  // a busy mock's rebuilds complete by the thousand (decisions/051).
  const targetOf = remembered(
    (url: string): Target => {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return { kind: "invalid" };
      }
      const sinkPath = target.origin === own ? SINK_PATH.exec(target.pathname) : null;
      if (!sinkPath) return { kind: "remote" };
      // What the sink route answers: 200 for any partner id that can exist, 404 otherwise.
      const path =
        sinkParameters &&
        readPathParameters<{ partnerId: number }>(sinkParameters, { partnerId: sinkPath[1] ?? "" });
      return path ? { kind: "sink", partnerId: path.partnerId } : { kind: "no sink" };
    },
    { capacity: 64, longestKey: 2048 },
  );
  return async ({ url, headers, body }) => {
    const target = targetOf(url);
    if (target.kind === "invalid") return { error: "invalid webhook URL" };
    if (target.kind === "no sink") return { status: 404 };
    if (target.kind === "sink") {
      sink(target.partnerId, headers, body);
      return { status: 200 };
    }
    try {
      const response = await postCallback(url, headers, body, timeoutMs);
      await drain(response.body);
      return { status: response.status };
    } catch (error) {
      const name = error instanceof Error ? error.name : "";
      return { error: name === "TimeoutError" || name === "AbortError" ? "timeout" : "network error" };
    }
  };
}

/**
 * Reads an answer's body to its end keeping nothing: reading frees the connection (cancelling the
 * stream stalls under MSW's passthrough), and a receiver that answers with an endless body costs
 * no memory, only the attempt's time, which its timeout bounds.
 */
async function drain(body: ReadableStream<Uint8Array> | null): Promise<void> {
  const reader = body?.getReader();
  if (reader) while (!(await reader.read()).done);
}

/**
 * One callback attempt on the wire, as the service makes it: a POST of `body` with exactly
 * `headers`, no redirect followed (a 3xx is the answer), and `timeoutMs` for the whole exchange,
 * the answer's body included. The mock's deliveries and the bin's send-callback both send this way.
 */
export function postCallback(
  url: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  timeoutMs: number,
): Promise<Response> {
  // Looked up per call, never captured: MSW's setupServer patches globalThis.fetch when it starts
  // listening, usually after the handlers (and so the transport) were created.
  return globalThis.fetch(url, {
    method: "POST",
    headers,
    body,
    signal: AbortSignal.timeout(timeoutMs),
    redirect: "manual",
  });
}
