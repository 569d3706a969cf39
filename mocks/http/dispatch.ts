import { DomainError } from "../domain/errors.js";
import {
  decideFault,
  type FaultDecision,
  type FaultRule,
  type FaultSettings,
  ruleFault,
} from "../domain/faults.js";
import type { Random } from "../domain/random.js";
import type { JournalCaller, JournalRecord, RequestJournal } from "../domain/request-journal.js";
import { checkBodySize, MAX_BODY_BYTES } from "../routes/body.js";
import { compileRoutes } from "../routes/router.js";
import {
  type DispatchResult,
  FailureWithHeaders,
  type MockRequest,
  type MockResponse,
  type RouteDefinition,
} from "../routes/types.js";
import type { EdgeObservedRequest } from "./edge.js";
import { errorResponse, injectedFaultResponse, scriptedFaultResponse } from "./error-response.js";

type OperationId = JournalRecord["operationId"];

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
  /**
   * `public`: an API of the contract; injected faults apply. `control`: the development control
   * API; faults never apply, an oversized body is refused (413) before any route runs, and the
   * standalone server refuses requests from origins it does not allow.
   */
  kind: "public" | "control";
  /**
   * The name the request journal records this API's requests under; an API without one is not
   * journalled (the control API never is).
   */
  journalAs?: JournalRecord["api"];
}

/** One request the mock answered, as the dispatcher saw it. */
export interface ObservedRequest {
  request: MockRequest;
  /** The answer; for a reset, the one the route produced and the client never receives. */
  response: MockResponse;
  /**
   * `"error"`: `response` is an injected failure (a 503, or a scripted rule's documented status) that
   * never reached the route; `"reset"`: the connection is dropped instead.
   */
  fault: FaultDecision;
}

export interface DispatcherOptions<World> {
  world: World;
  apis: readonly MountedApi<World>[];
  faults: () => Readonly<FaultSettings>;
  /**
   * The scripted fault rule that applies to one call of a public operation, used up by being taken
   * (decisions/044); while one applies, `faults` does not.
   */
  takeRule?: (operationId: string) => FaultRule | undefined;
  random: Random;
  /**
   * Where every answered request to an API with `journalAs` is recorded, the one place the request
   * journal is fed (decisions/030): the same under every adapter.
   */
  journal?: Pick<RequestJournal, "now" | "record">;
  /** Called with every error that is not a DomainError (a bug in the mock). */
  onInternalError?: (error: unknown) => void;
  /**
   * Sees every request the mock answers, once answered (not the ones it passes through). For
   * request logs and contract checks; an observer that throws is reported as an internal error
   * and never changes the answer.
   */
  observe?: (exchange: EdgeObservedRequest) => void;
}

export interface Dispatcher {
  /** The answer, synchronously when the route gives it so (most do), else once it has it. */
  (req: MockRequest): DispatchResult | Promise<DispatchResult>;
  /** The API mounted where `url` points, if any. */
  apiAt(url: URL): { kind: MountedApi<unknown>["kind"] } | undefined;
  /** The methods served at `url` (HEAD wherever GET is), or undefined when nothing is there. */
  methodsAt(url: URL): readonly string[] | undefined;
  /** The largest body a request to `method url` may carry (bytes); adapters stop reading past it. */
  bodyLimit(method: string, url: URL): number;
  /** Hands an exchange answered in front of the dispatcher (the HTTP edge) to the observer. */
  report(exchange: EdgeObservedRequest): void;
  /**
   * Where the operation with this `operationId` lives, when its path has no parameters: how an
   * adapter finds the operations it answers itself (the node server's console and event stream).
   */
  locate(operationId: string): URL | undefined;
  /**
   * Where the mock answers, each an origin and the path below which it does (`http://127.0.0.1:4010/v1`):
   * how the MSW adapter matches only the mock's requests, leaving the rest unhandled for msw.
   */
  readonly scopes: readonly string[];
  /**
   * The 404 for a request no API is mounted at (the standalone server's answer to a request the
   * mock does not serve): when the path is an operation's below an API's base path, the message
   * names the path with it (`/si/servers` → `/v1/si/servers`).
   */
  notMounted(method: string, url: URL): MockResponse;
}

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
      // Made once: `mountAt` runs more than once per request.
      scopeBelow: `${prefix + api.scope}/`,
      router: compileRoutes(api.routes),
    };
  });

  const mountAt = (url: URL) => {
    const path = url.pathname;
    const origin = url.origin;
    return mounted.find(
      (m) =>
        m.origin === origin &&
        (path === m.scopePath || path.startsWith(m.scopeBelow)) &&
        (m.scopePath !== "" || path !== "/"),
    );
  };
  const below = (entry: (typeof mounted)[number], url: URL) => url.pathname.slice(entry.prefix.length) || "/";

  /** A route's failure as its answer; one that is not a DomainError is a bug, reported. */
  const failed = (thrown: unknown): MockResponse => {
    const error = thrown instanceof FailureWithHeaders ? thrown.failure : thrown;
    const headers = thrown instanceof FailureWithHeaders ? thrown.headers : {};
    if (!(error instanceof DomainError)) options.onInternalError?.(error);
    return errorResponse(error, headers);
  };

  const dispatch = (req: MockRequest): DispatchResult | Promise<DispatchResult> => {
    const path = req.url.pathname;
    const entry = mountAt(req.url);
    if (!entry) return PASS;
    const journalAs = options.journal && entry.api.journalAs;
    // Real time for the duration (an adapter's concern, never the domain's); virtual time for `at`.
    const started = journalAs ? performance.now() : 0;
    const arrivedAt = journalAs ? (options.journal?.now() ?? 0) : 0;
    let caller: JournalCaller | null = null;
    const identify = (who: JournalCaller) => {
      caller = who;
    };

    const found = entry.router.match(req.method, below(entry, req.url));
    const isPublic = entry.api.kind === "public";
    const operationId = found.kind === "found" ? found.route.operationId : undefined;
    const rule = isPublic && operationId !== undefined ? options.takeRule?.(operationId) : undefined;
    const settings = isPublic && !rule ? options.faults() : undefined;
    const delayMs = rule ? (rule.latencyMs ?? 0) : (settings?.latencyMs ?? 0);
    const fault: FaultDecision = rule
      ? ruleFault(rule)
      : settings
        ? decideFault(settings, options.random)
        : "none";
    const conclude = (response: MockResponse): DispatchResult => {
      observe({ request: req, response, fault });
      if (journalAs) {
        options.journal?.record({
          atMs: arrivedAt,
          api: journalAs,
          method: req.method,
          path,
          operationId: (operationId ?? null) as OperationId,
          status: response.status,
          durationMs: Math.round((performance.now() - started) * 1000) / 1000,
          caller,
          // The text as sent; the journal keeps it only as JSON, redacted and bounded (journal-body.ts).
          body: req.body && req.body.length > 0 ? journalText.decode(req.body) : null,
        });
      }
      return fault === "reset" ? { kind: "reset", delayMs } : { kind: "respond", response, delayMs };
    };

    if (fault === "error") {
      return conclude(
        rule?.status !== undefined
          ? scriptedFaultResponse(rule.operationId, rule.status)
          : injectedFaultResponse(),
      );
    }
    if (found.kind === "not-found") {
      return conclude(errorResponse(new DomainError("NOT_FOUND", `No resource at ${path}`)));
    }
    if (found.kind === "method-not-allowed") {
      const error = new DomainError("METHOD_NOT_ALLOWED", `${req.method} is not allowed on ${path}`, {
        allow: found.allow,
      });
      return conclude(errorResponse(error));
    }
    let handled: MockResponse | Promise<MockResponse>;
    try {
      if (entry.api.kind === "control") checkBodySize(req, found.route.maxBodyBytes);
      handled = found.route.handle({ world: options.world, req, params: found.params, identify });
    } catch (thrown) {
      return conclude(failed(thrown));
    }
    // Most routes answer synchronously: their answer is given without waiting for a turn of the
    // event loop, which the node server feels on every request. A route's type allows a Promise,
    // not any thenable, so `instanceof` tells the two apart.
    return handled instanceof Promise
      ? handled.then(conclude, (thrown: unknown) => conclude(failed(thrown)))
      : conclude(handled);
  };

  return Object.assign(dispatch, {
    apiAt(url: URL) {
      const entry = mountAt(url);
      return entry ? { kind: entry.api.kind } : undefined;
    },
    methodsAt(url: URL) {
      const entry = mountAt(url);
      return entry ? entry.router.methods(below(entry, url)) : undefined;
    },
    bodyLimit(method: string, url: URL) {
      const entry = mountAt(url);
      const found = entry?.router.match(method, below(entry, url));
      return (found?.kind === "found" ? found.route.maxBodyBytes : undefined) ?? MAX_BODY_BYTES;
    },
    report: observe,
    scopes: mounted.map((m) => m.origin + m.scopePath),
    notMounted(method: string, url: URL) {
      const meant = mounted.find(
        (m) =>
          m.prefix !== "" &&
          m.origin === url.origin &&
          m.router.match(method, url.pathname).kind !== "not-found",
      );
      const hint = meant
        ? `; did you mean ${meant.prefix}${url.pathname}? (this API's base URL is ${meant.api.baseUrl})`
        : "";
      return errorResponse(new DomainError("NOT_FOUND", `No resource at ${url.pathname}${hint}`));
    },
    locate(operationId: string) {
      for (const entry of mounted) {
        const route = entry.api.routes.find((r) => r.operationId === operationId && !r.path.includes("{"));
        if (route) return new URL(entry.prefix + route.path, entry.origin);
      }
      return undefined;
    },
  });

  function observe(exchange: EdgeObservedRequest): void {
    try {
      options.observe?.(exchange);
    } catch (error) {
      options.onInternalError?.(error);
    }
  }
}

const PASS: DispatchResult = Object.freeze({ kind: "pass" });
const journalText = new TextDecoder("utf-8");
