// The two control API operations only the standalone server answers (decisions/032): the console
// page (`openConsole`) and its live events (`streamEvents`). Under MSW their routes answer 404; here
// the node listener hands their paths to these endpoints once the edge let the request through.
import { CONSOLE_CSP, CONSOLE_PAGE } from "../../src/generated/mock-console.js";
import { DomainError } from "../domain/errors.js";
import type { Dispatcher } from "./dispatch.js";
import { errorResponse } from "./error-response.js";
import { type EventHub, STREAM_RETRY_AFTER_SECONDS } from "./event-streams.js";
import type { LocalAnswer, LocalEndpoint } from "./node-listener.js";

const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": CONSOLE_CSP,
  "cache-control": "no-cache",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
});

const STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-store",
  // Proxies that buffer answers (nginx) would hold the events back.
  "x-accel-buffering": "no",
});

/** The endpoints by path, where the dispatcher says the two operations live. */
export function consoleEndpoints(dispatch: Dispatcher, hub: EventHub): Map<string, LocalEndpoint> {
  const endpoints = new Map<string, LocalEndpoint>();
  const at = (operationId: string, endpoint: LocalEndpoint) => {
    const url = dispatch.locate(operationId);
    if (!url) throw new Error(`the control API has no ${operationId} operation`);
    endpoints.set(url.pathname, endpoint);
  };
  at("openConsole", () => ({ status: 200, headers: { ...PAGE_HEADERS }, text: CONSOLE_PAGE }));
  // HEAD opens no stream, so the cap does not apply to it.
  at("streamEvents", (request) => (hub.full && request.method !== "HEAD" ? refusal(hub) : stream(hub)));
  return endpoints;
}

function stream(hub: EventHub): LocalAnswer {
  return {
    status: 200,
    headers: { ...STREAM_HEADERS },
    stream: (res) => {
      // Nagle's algorithm would hold a small event back for the next one.
      res.socket?.setNoDelay(true);
      if (!hub.open(res)) res.destroy();
    },
  };
}

function refusal(hub: EventHub): LocalAnswer {
  const {
    status,
    headers = {},
    body,
  } = errorResponse(
    new DomainError(
      "RATE_LIMIT_EXCEEDED",
      `At most ${hub.capacity} event streams may be open at once (each console tab holds one): close one and retry`,
      { retryAfterSeconds: STREAM_RETRY_AFTER_SECONDS },
    ),
  );
  return { status, headers, json: body };
}
