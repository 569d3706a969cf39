import { delay, HttpResponse, http } from "msw";
import type { MockRequest } from "../routes/types.js";
import type { Dispatcher } from "./dispatch.js";

/**
 * Adapts the dispatcher to MSW: one catch-all handler that answers for the mock's paths and lets
 * every other request through to the next handler (or the network).
 */
export function createMswHandlers(dispatch: Dispatcher) {
  return [
    http.all("*", async ({ request }) => {
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
