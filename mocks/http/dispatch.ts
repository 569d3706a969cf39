import { DomainError } from "../domain/errors.js";
import { decideFault, type FaultDecision, type FaultSettings } from "../domain/faults.js";
import type { Random } from "../domain/random.js";
import { compileRoutes } from "../routes/router.js";
import {
  type DispatchResult,
  FailureWithHeaders,
  type MockRequest,
  type MockResponse,
  type RouteDefinition,
} from "../routes/types.js";
import { errorResponse } from "./error-response.js";

/** One API's route table placed at a base URL. */
export interface MountedApi<World> {
  /** Where the API lives, e.g. `http://127.0.0.1:4010/v1`. */
  baseUrl: string;
  /**
   * The path below the base that the mock answers for. Requests outside it are not the mock's
   * (in the browser the page's own files share the origin), so they pass through.
   */
  scope: string;
  routes: readonly RouteDefinition<World>[];
  /** Whether injected faults apply (the public APIs) or not (the control API). */
  faultable: boolean;
}

/** One request the mock answered, as the dispatcher saw it. */
export interface ObservedRequest {
  request: MockRequest;
  /** The answer; for a reset, the one the route produced and the client never receives. */
  response: MockResponse;
  /** `"error"`: `response` is an injected 503; `"reset"`: the connection is dropped instead. */
  fault: FaultDecision;
}

export interface DispatcherOptions<World> {
  world: World;
  apis: readonly MountedApi<World>[];
  faults: () => FaultSettings;
  random: Random;
  /** Called with every error that is not a DomainError (a bug in the mock). */
  onInternalError?: (error: unknown) => void;
  /**
   * Sees every request the mock answers, once answered (not the ones it passes through). For
   * request logs and contract checks; an observer that throws is reported as an internal error
   * and never changes the answer.
   */
  observe?: (exchange: ObservedRequest) => void;
}

export type Dispatcher = (req: MockRequest) => Promise<DispatchResult>;

/**
 * The shared core of every adapter: finds the route (404, 405), runs it, applies injected faults
 * and maps failures to responses. Adapters only translate to and from MockRequest.
 */
export function createDispatcher<World>(options: DispatcherOptions<World>): Dispatcher {
  const mounted = options.apis.map((api) => {
    const base = new URL(api.baseUrl);
    const prefix = base.pathname.replace(/\/+$/, "");
    return {
      api,
      origin: base.origin,
      prefix,
      scopePath: prefix + api.scope,
      match: compileRoutes(api.routes),
    };
  });

  return async (req) => {
    const path = req.url.pathname;
    const entry = mounted.find(
      (m) =>
        m.origin === req.url.origin &&
        (path === m.scopePath || path.startsWith(`${m.scopePath}/`)) &&
        (m.scopePath !== "" || path !== "/"),
    );
    if (!entry) return { kind: "pass" };

    const settings = entry.api.faultable ? options.faults() : undefined;
    const delayMs = settings?.latencyMs ?? 0;
    const fault = settings ? decideFault(settings, options.random) : "none";
    if (fault === "error") {
      const response: MockResponse = {
        status: 503,
        headers: { "retry-after": "0" },
        body: { message: "Injected fault: service unavailable", error: { code: "INTERNAL" } },
      };
      observe({ request: req, response, fault });
      return respond(response, delayMs);
    }

    const found = entry.match(req.method, path.slice(entry.prefix.length) || "/");
    let response: DispatchResult & { kind: "respond" };
    if (found.kind === "not-found") {
      response = respond(errorResponse(new DomainError("NOT_FOUND", `No resource at ${path}`)), delayMs);
    } else if (found.kind === "method-not-allowed") {
      const error = new DomainError("METHOD_NOT_ALLOWED", `${req.method} is not allowed on ${path}`, {
        allow: found.allow,
      });
      response = respond(errorResponse(error), delayMs);
    } else {
      try {
        response = respond(
          await found.route.handle({ world: options.world, req, params: found.params }),
          delayMs,
        );
      } catch (thrown) {
        const error = thrown instanceof FailureWithHeaders ? thrown.failure : thrown;
        const headers = thrown instanceof FailureWithHeaders ? thrown.headers : {};
        if (!(error instanceof DomainError)) options.onInternalError?.(error);
        response = respond(errorResponse(error, headers), delayMs);
      }
    }
    observe({ request: req, response: response.response, fault });
    return fault === "reset" ? { kind: "reset", delayMs } : response;
  };

  function observe(exchange: ObservedRequest): void {
    try {
      options.observe?.(exchange);
    } catch (error) {
      options.onInternalError?.(error);
    }
  }
}

function respond(response: MockResponse, delayMs: number): DispatchResult & { kind: "respond" } {
  return { kind: "respond", response, delayMs };
}
