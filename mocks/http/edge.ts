import {
  responseHeaders as dashboardHeaders,
  requestHeaders as dashboardRequestHeaders,
} from "../../src/generated/dashboard-operations.js";
import {
  responseHeaders as rebuildHeaders,
  requestHeaders as rebuildRequestHeaders,
} from "../../src/generated/rebuild-operations.js";
import { DomainError, validationFailed } from "../domain/errors.js";
import type { MockRequest, MockResponse } from "../routes/types.js";
import type { Dispatcher, ObservedRequest } from "./dispatch.js";
import type { EdgePolicy } from "./edge-policy.js";
import { errorResponse } from "./error-response.js";

/**
 * The request headers the two APIs read, as their documents state them (each security scheme's
 * header, header parameters, Content-Type of a body); a preflight allows them (and any others the
 * page asks for).
 */
const ALLOWED_HEADERS = [...new Set([...dashboardRequestHeaders, ...rebuildRequestHeaders])];
/**
 * The response headers a page needs to read, every one the two APIs' documents document (the
 * callback's X-API-Key is a request's); every other is hidden from it by CORS.
 */
const EXPOSED_HEADERS = [...new Set([...dashboardHeaders, ...rebuildHeaders])].join(", ");
/** How long a browser may reuse a preflight's answer (seconds). */
const PREFLIGHT_MAX_AGE_SECONDS = 600;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const VARY_ORIGIN: Readonly<Record<string, string>> = Object.freeze({ vary: "Origin" });

/** Which rule of the standalone server's HTTP edge answered a request (node only: `./mocks/node`). */
export type EdgeRule = "preflight" | "host" | "origin" | "request-target";

/** A request the standalone server observed: the edge's rules exist only there (node only; decisions/047). */
export interface EdgeObservedRequest extends ObservedRequest {
  /**
   * Set when the standalone server's HTTP edge answered before any API did (decisions/017): a CORS
   * `preflight` (204), a refused `host` or `origin` (403), or a `request-target` that is not a URL
   * (400; `request.url` is then the server's root).
   */
  edge?: EdgeRule;
}

/** An answer the edge gave instead of the APIs. */
interface EdgeAnswer {
  rule: EdgeRule;
  response: MockResponse;
}

/**
 * The standalone server's HTTP edge: host check, the control API's origin check and CORS, applied
 * in front of the dispatcher (decisions/017). Refusals come from the one error mapping; every
 * answer the edge gives itself is reported to the dispatcher's observer.
 */
export interface Edge {
  /**
   * Answers what must not reach the APIs, before the body is read: a refused Host (403), a request
   * to `/__mock` from an origin that is not allowed (403, before anything changes), a CORS preflight
   * (204, before authentication; it counts toward no rate limit and changes nothing).
   */
  screen(req: MockRequest): EdgeAnswer | undefined;
  /** Refuses a request-target that is not a URL (400); `root` is the server's own root URL. */
  badTarget(req: Omit<MockRequest, "url">, root: URL): EdgeAnswer;
  /**
   * Headers to add to the APIs' answer: with CORS on, `Vary: Origin` always, and for an allowed
   * origin `Access-Control-Allow-Origin` and `-Expose-Headers`; nothing with CORS off.
   */
  corsHeaders(req: MockRequest): Readonly<Record<string, string>> | undefined;
}

export function createEdge(dispatch: Dispatcher, policy: EdgePolicy): Edge {
  const answer = (req: MockRequest, rule: EdgeRule, response: MockResponse): EdgeAnswer => {
    dispatch.report({ kind: "request", request: req, response, fault: "none", edge: rule });
    return { rule, response };
  };

  return {
    screen(req) {
      const host = req.headers.get("host");
      // Browsers always send Host; only an HTTP/1.0 client may leave it out, and it cannot be a rebinding.
      if (host !== null && !policy.hostAllowed(host)) {
        return answer(
          req,
          "host",
          errorResponse(
            new DomainError(
              "FORBIDDEN",
              `Host ${host.slice(0, 200)} is not allowed: use a loopback name or address, the --host value, or start the mock with --allowed-host`,
            ),
          ),
        );
      }
      const origin = req.headers.get("origin");
      if (origin === null) return undefined;
      const allowed = policy.originAllowed(origin) || sameOrigin(origin, host, req.url);
      if (!allowed && dispatch.apiAt(req.url)?.kind === "control") {
        return answer(
          req,
          "origin",
          errorResponse(
            new DomainError(
              "FORBIDDEN",
              `Origin ${origin.slice(0, 200)} may not use the control API: start the mock with --cors-origin to allow it`,
            ),
          ),
        );
      }
      const requestedMethod = req.headers.get("access-control-request-method");
      if (req.method !== "OPTIONS" || requestedMethod === null || !allowed) return undefined;
      const methods = dispatch.methodsAt(req.url);
      if (methods === undefined) return undefined;
      return answer(req, "preflight", {
        status: 204,
        headers: {
          "access-control-allow-origin": origin,
          "access-control-allow-methods": methods.join(", "),
          "access-control-allow-headers": allowedHeaders(req.headers.get("access-control-request-headers")),
          "access-control-max-age": String(PREFLIGHT_MAX_AGE_SECONDS),
          vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
        },
      });
    },

    badTarget(req, root) {
      const request: MockRequest = { ...req, url: root };
      return answer(
        request,
        "request-target",
        errorResponse(
          validationFailed(
            [{ type: "invalid_format", path: "", message: "must have a request-target that is a valid URL" }],
            "request",
          ),
        ),
      );
    },

    corsHeaders(req) {
      if (!policy.cors) return undefined;
      const origin = req.headers.get("origin");
      if (origin === null || !policy.originAllowed(origin)) return VARY_ORIGIN;
      return {
        "access-control-allow-origin": origin,
        "access-control-expose-headers": EXPOSED_HEADERS,
        vary: "Origin",
      };
    },
  };
}

/** The fixed list plus the header names a preflight asks for, each a valid token. */
function allowedHeaders(requested: string | null): string {
  const names = new Map(ALLOWED_HEADERS.map((name) => [name.toLowerCase(), name]));
  for (const raw of (requested ?? "").split(",")) {
    const name = raw.trim();
    if (TOKEN.test(name) && !names.has(name.toLowerCase())) names.set(name.toLowerCase(), name);
  }
  return [...names.values()].join(", ");
}

/** A browser sends Origin on same-origin POSTs too: a page served from the mock's own origin. */
function sameOrigin(origin: string, host: string | null, url: URL): boolean {
  return host !== null && origin === `${url.protocol}//${host.toLowerCase()}`;
}
