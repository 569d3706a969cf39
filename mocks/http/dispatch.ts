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
import { checkBodySize } from "../routes/body.js";
import { compileRoutes, type RouteMatch } from "../routes/router.js";
import {
  type DispatchResult,
  FailureWithHeaders,
  type MockRequest,
  type MockResponse,
  type RouteDefinition,
  type RouteHandler,
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
  /** The largest body of a request that no route with its own limit matches (bytes; the document's `x-body-limit`). */
  bodyLimit: number;
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

/** What the dispatcher's observer is given: an answered request, the edge's answers included. */
type RequestObservation = { kind: "request" } & EdgeObservedRequest;

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
  observe?: (exchange: RequestObservation) => void;
  /**
   * Handlers an adapter supplies for operations of the tables, by operationId, in place of the
   * table's own (the node server's console page and event stream; under MSW the table's 404).
   */
  supplied?: Readonly<Record<string, RouteHandler<World>>>;
}

/**
 * Where a request goes, found once: the adapter reads the body up to `bodyLimit` and hands the
 * match back with the request (decisions/049), to the dispatcher that made it only.
 */
export interface RequestMatch {
  /** The largest body this request may carry (bytes): the matched operation's, else its API's. */
  readonly bodyLimit: number;
}

export interface Dispatcher {
  /**
   * The answer, synchronously when the route gives it so (most do), else once it has it. `matched`
   * is what `match` gave for this request's method and URL (the adapter read the body by it);
   * without it the dispatcher matches the request itself.
   */
  (req: MockRequest, matched?: RequestMatch): DispatchResult | Promise<DispatchResult>;
  /** Finds where `method url` goes: the one match of a request (its route, and the body limit). */
  match(method: string, url: URL): RequestMatch;
  /** The API mounted where `url` points, if any. */
  apiAt(url: URL): { kind: MountedApi<unknown>["kind"] } | undefined;
  /** The methods served at `url` (HEAD wherever GET is), or undefined when nothing is there. */
  methodsAt(url: URL): readonly string[] | undefined;
  /** Hands an exchange answered in front of the dispatcher (the HTTP edge) to the observer. */
  report(exchange: RequestObservation): void;
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
  const { supplied } = options;
  const mounted = options.apis.map((api) => {
    const base = new URL(api.baseUrl);
    const prefix = base.pathname.replace(/\/+$/, "");
    // An operation an adapter answers keeps its place in the table; only its handler is the adapter's.
    const routes = supplied
      ? api.routes.map((route) => {
          const handle = route.operationId === undefined ? undefined : supplied[route.operationId];
          return handle ? { ...route, handle } : route;
        })
      : api.routes;
    return {
      api,
      origin: base.origin,
      prefix,
      scopePath: prefix + api.scope,
      scopeBelow: `${prefix + api.scope}/`,
      router: compileRoutes(routes),
    };
  });
  type Mounted = (typeof mounted)[number];
  /** A match as the dispatcher keeps it: the API and the router's answer (none outside every API). */
  interface Matched extends RequestMatch {
    readonly mount: Mounted | undefined;
    readonly found: RouteMatch<World> | undefined;
  }
  // Outside every API a body is read up to the smallest limit: nothing will run on it.
  const unmounted: Matched = {
    mount: undefined,
    found: undefined,
    bodyLimit: Math.min(...options.apis.map((api) => api.bodyLimit)),
  };

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
  const below = (entry: Mounted, url: URL) => url.pathname.slice(entry.prefix.length) || "/";

  const match = (method: string, url: URL): Matched => {
    const mount = mountAt(url);
    if (!mount) return unmounted;
    const found = mount.router.match(method, below(mount, url));
    return {
      mount,
      found,
      bodyLimit: (found.kind === "found" ? found.route.maxBodyBytes : undefined) ?? mount.api.bodyLimit,
    };
  };

  /** A route's failure as its answer; one that is not a DomainError is a bug, reported. */
  const failed = (thrown: unknown): MockResponse => {
    const error = thrown instanceof FailureWithHeaders ? thrown.failure : thrown;
    const headers = thrown instanceof FailureWithHeaders ? thrown.headers : {};
    if (!(error instanceof DomainError)) options.onInternalError?.(error);
    return errorResponse(error, headers);
  };

  const dispatch = (req: MockRequest, given?: RequestMatch): DispatchResult | Promise<DispatchResult> => {
    // Only `match` makes a RequestMatch, so one given is a Matched.
    const { mount: entry, found, bodyLimit } = (given as Matched | undefined) ?? match(req.method, req.url);
    if (!entry || !found) return PASS;
    const path = req.url.pathname;
    const journalAs = options.journal && entry.api.journalAs;
    // Real time for the duration (an adapter's concern, never the domain's); virtual time for `at`.
    const started = journalAs ? performance.now() : 0;
    const arrivedAt = journalAs ? (options.journal?.now() ?? 0) : 0;
    let caller: JournalCaller | null = null;
    const identify = (who: JournalCaller) => {
      caller = who;
    };

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
      observe({ kind: "request", request: req, response, fault });
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
      if (entry.api.kind === "control") checkBodySize(req, bodyLimit);
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
    match,
    apiAt(url: URL) {
      const entry = mountAt(url);
      return entry ? { kind: entry.api.kind } : undefined;
    },
    methodsAt(url: URL) {
      const entry = mountAt(url);
      return entry ? entry.router.methods(below(entry, url)) : undefined;
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
  });

  /** The one wrapper around the observer: one that throws is reported and never changes the answer. */
  function observe(exchange: RequestObservation): void {
    if (!options.observe) return;
    try {
      options.observe(exchange);
    } catch (error) {
      options.onInternalError?.(error);
    }
  }
}

const PASS: DispatchResult = Object.freeze({ kind: "pass" });
const journalText = new TextDecoder("utf-8");
