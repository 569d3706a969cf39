import * as msw from "msw";
import { delay, HttpResponse, http } from "msw";
import type { MockRequest } from "../routes/types.js";
import type { Dispatcher } from "./dispatch.js";

/**
 * Adapts the dispatcher to MSW: one handler for the mock's URLs that answers for the mock's paths
 * and passes the rest of them on to the next handler; requests anywhere else never match it.
 */
export function createMswHandlers(dispatch: Dispatcher) {
  // Only the mock's URLs match: any other request is unhandled for msw, so its unhandled-request
  // option (`"error"` in a test) sees it. A pattern rather than a predicate function, which msw has
  // only since 2.11. The patterns end at a path segment: `/v1` matches `/v1/…`, not `/v10`.
  const scope = new RegExp(`^(?:${dispatch.scopes.map(escapeRegExp).join("|")})(?:/|$)`);
  return [
    http.all(scope, async ({ request }) => {
      // Read from a clone: a request that is not the mock's passes through to the next handler or
      // the network, which must still find its body unread.
      const body =
        request.method === "GET" || request.method === "HEAD"
          ? null
          : new Uint8Array(await request.clone().arrayBuffer());
      const mockRequest: MockRequest = {
        method: request.method,
        url: new URL(request.url),
        headers: request.headers,
        body: body && body.length > 0 ? body : null,
      };
      const result = await dispatch(mockRequest);
      if (result.kind === "pass") return undefined;
      if (result.delayMs > 0) await delay(result.delayMs);
      if (result.kind === "reset") return HttpResponse.error();
      const { status, headers = {}, body: json } = result.response;
      if (json === undefined) return new HttpResponse(null, { status, headers });
      if (request.method === "HEAD") {
        // The GET answer's status and headers, Content-Length included, without the body.
        const length = String(new TextEncoder().encode(JSON.stringify(json)).length);
        return new HttpResponse(null, {
          status,
          headers: { ...headers, "content-type": "application/json", "content-length": length },
        });
      }
      return HttpResponse.json(json, { status, headers });
    }),
  ];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * msw's option for a request no handler answers, under the name the installed msw reads: msw 2's
 * `onUnhandledRequest`, msw 3's `onUnhandledFrame` (each ignores the other's, so passing the wrong
 * one silently means the default). Told apart at run time by msw 3 no longer exporting
 * `onUnhandledRequest`, the function behind msw 2's option.
 */
export function unhandledRequestOption(strategy: "bypass" | "warn" | "error") {
  return "onUnhandledRequest" in msw ? { onUnhandledRequest: strategy } : { onUnhandledFrame: strategy };
}
