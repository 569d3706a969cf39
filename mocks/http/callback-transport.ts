import type { CallbackTransport } from "../domain/rebuild/index.js";
import type { HeaderReader } from "../routes/types.js";
import type { Dispatcher } from "./dispatch.js";

const utf8 = new TextEncoder();

/**
 * A delivery's headers as the dispatcher reads them, with what `new Headers(record)` would give
 * (names lower-cased and sorted, values trimmed, names differing only in case joined with ", ")
 * for a fraction of its cost: every completed rebuild goes through here.
 */
function recordHeaders(record: Readonly<Record<string, string>>): HeaderReader {
  const byName = new Map<string, string>();
  for (const [name, raw] of Object.entries(record)) {
    const key = name.toLowerCase();
    const value = raw.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
    const before = byName.get(key);
    byName.set(key, before === undefined ? value : `${before}, ${value}`);
  }
  return {
    get: (name) => byName.get(name.toLowerCase()) ?? null,
    entries: () => [...byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  };
}

/** The service gives a receiver this long to answer (contract-decisions: "within 10 s"). */
export const CALLBACK_TIMEOUT_MS = 10_000;

/**
 * Delivers callbacks: a URL the mock itself serves (its built-in sink) goes through the dispatcher
 * in-process, so it works the same under MSW, in the browser and in the server; any other URL is
 * a real POST.
 */
export function createCallbackTransport(
  dispatch: Dispatcher,
  { timeoutMs }: { timeoutMs: number },
): CallbackTransport {
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new RangeError(`callbackTimeoutMs must be a positive number of ms, got ${timeoutMs}`);
  }
  return async ({ url, headers, body }) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return { error: "invalid webhook URL" };
    }
    const local = await dispatch({
      method: "POST",
      url: target,
      headers: recordHeaders(headers),
      body: utf8.encode(body),
    });
    if (local.kind === "respond") return { status: local.response.status };
    if (local.kind === "reset") return { error: "connection reset" };
    try {
      const response = await postCallback(url, headers, body, timeoutMs);
      // Reading the (small) answer frees the connection; cancelling the stream stalls under MSW's passthrough.
      await response.arrayBuffer();
      return { status: response.status };
    } catch (error) {
      const name = error instanceof Error ? error.name : "";
      return { error: name === "TimeoutError" || name === "AbortError" ? "timeout" : "network error" };
    }
  };
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
