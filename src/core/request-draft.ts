/**
 * What openapi-fetch's `Request` option builds for a resource method's call that no user middleware
 * sees: the URL and the init openapi-fetch gave, kept as they are (decisions/054). The SDK's `fetch`
 * sends them itself, by URL, so the runtime's Request (which parses the URL, copies the headers,
 * makes an AbortSignal and wraps the body in a stream) would be built only to be taken apart again.
 *
 * It has what the SDK's own `fetch` and response check read of a request, nothing else: never hand
 * one to code that expects a Request (a user's middleware gets a real one, see `transport.ts`).
 */
export class RequestDraft {
  /** openapi-fetch always names the method; a label reads it here. */
  readonly method: string;

  constructor(
    readonly url: string,
    /** openapi-fetch's init: the method, the merged headers, the serialised body, `redirect`. */
    readonly init: RequestInit,
  ) {
    this.method = init.method as string;
  }
}
