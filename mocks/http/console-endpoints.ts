// The node server's handlers for two operations of the control API (decisions/032, 049): the
// console page (`openConsole`) and its live events (`streamEvents`). They are ordinary routes of the
// control document, matched, observed and mapped like every other; the node server supplies their
// handlers when it builds its dispatcher, and under MSW the table's own answer their documented 404.
import { CONSOLE_CSP, CONSOLE_PAGE } from "../../src/generated/mock-console.js";
import { DomainError } from "../domain/errors.js";
import type { EventHub } from "./event-streams.js";
import { STREAM_RETRY_AFTER_SECONDS } from "./event-streams.js";
import type { AdapterDispatcherOptions } from "./mock-dispatcher.js";
import type { NodeAnswer } from "./node-listener.js";

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

/** The two handlers, by operationId, over the server's event hub. */
export function consoleRoutes(hub: EventHub): NonNullable<AdapterDispatcherOptions["supplied"]> {
  return {
    openConsole: (): NodeAnswer => ({
      status: 200,
      headers: { ...PAGE_HEADERS },
      body: CONSOLE_PAGE,
      text: true,
    }),
    streamEvents: ({ req }): NodeAnswer => {
      // HEAD opens no stream, so the cap does not apply to it.
      if (hub.full && req.method !== "HEAD") {
        throw new DomainError(
          "RATE_LIMIT_EXCEEDED",
          `At most ${hub.capacity} event streams may be open at once (each console tab holds one): close one and retry`,
          { retryAfterSeconds: STREAM_RETRY_AFTER_SECONDS },
        );
      }
      return {
        status: 200,
        headers: { ...STREAM_HEADERS },
        stream: (res) => {
          // Nagle's algorithm would hold a small event back for the next one.
          res.socket?.setNoDelay(true);
          if (!hub.open(res)) res.destroy();
        },
      };
    },
  };
}
