import type { CallbackDelivery } from "../domain/rebuild/index.js";
import { controlRoutes } from "../routes/control-routes.js";
import { dashboardRoutes } from "../routes/dashboard-routes.js";
import { rebuildRoutes } from "../routes/rebuild-routes.js";
import { coreOf, type MockWorld, type WorldCore } from "../world.js";
import { createDispatcher, type Dispatcher, type MountedApi, type ObservedRequest } from "./dispatch.js";

/** Where the mock serves each API; by default both on the world's origin. */
export interface MockBaseUrls {
  /** Default `<world origin>/v1`. */
  dashboardBaseUrl?: string;
  /** Default the world's origin. */
  rebuildBaseUrl?: string;
}

/** Something the mock did on the wire: answered a request, or sent a callback. */
export type MockObservation =
  | ({ kind: "request" } & ObservedRequest)
  | {
      kind: "callback";
      delivery: CallbackDelivery;
      /** The receiver's status, or what went wrong (`timeout`, `network error`, ...). */
      outcome: { status: number } | { error: string };
    };

/** What `createHandlers` takes besides the world: the APIs' base URLs and who watches the mock. */
export interface MockDispatcherOptions extends MockBaseUrls {
  /** Called with errors that are bugs in the mock (they answer 500). */
  onInternalError?: (error: unknown) => void;
  /**
   * Sees every request the mock answers (both APIs and `/__mock`) and every callback attempt the
   * world makes, once done: for request logs and contract checks. It must not change what it is
   * given; if it throws, `onInternalError` gets the error and the mock carries on.
   */
  observe?: (observation: MockObservation) => void;
}

/** The rebuild API answers only below this path; the rest of its origin is left alone. */
const REBUILD_SCOPE = "/api/integration/partners/hostpanel";

/**
 * The contract's two APIs where the mock serves them on `origin` (unless `urls` says otherwise): the
 * dashboard at `/v1`, the rebuild API at its own paths. The proxy serves them at the same places.
 */
export function publicApis(
  origin: string,
  urls: MockBaseUrls = {},
): readonly [MountedApi<WorldCore>, MountedApi<WorldCore>] {
  return [
    {
      baseUrl: urls.dashboardBaseUrl ?? `${origin}/v1`,
      scope: "",
      routes: dashboardRoutes,
      kind: "public",
      journalAs: "dashboard",
    },
    {
      baseUrl: urls.rebuildBaseUrl ?? origin,
      scope: REBUILD_SCOPE,
      routes: rebuildRoutes,
      kind: "public",
      journalAs: "rebuild",
    },
  ];
}

/**
 * Both APIs and the control API mounted on a world. Every adapter starts from this; the world keeps
 * sending its callbacks its own way (decisions/025), the adapter only watches them.
 */
export function createMockDispatcher(
  world: MockWorld,
  options: MockDispatcherOptions = {},
): Dispatcher & { dispose(): void } {
  const core = coreOf(world);
  const { observe, onInternalError } = options;
  const report = (observation: MockObservation) => {
    try {
      observe?.(observation);
    } catch (error) {
      onInternalError?.(error);
    }
  };
  const stopObserving =
    observe && core.observeCallbacks((delivery, outcome) => report({ kind: "callback", delivery, outcome }));
  const dispatcher = createDispatcher({
    world: core,
    apis: [
      ...publicApis(world.origin, options),
      { baseUrl: `${world.origin}/__mock`, scope: "", routes: controlRoutes, kind: "control" },
    ],
    faults: core.faults,
    takeRule: core.takeRule,
    random: core.random,
    journal: core.journal,
    ...(onInternalError ? { onInternalError } : {}),
    ...(observe ? { observe: (exchange) => observe({ kind: "request", ...exchange }) } : {}),
  });
  // The world outlives an adapter (a server closed, a world served again): its watch ends with it.
  return Object.assign(dispatcher, { dispose: () => stopObserving?.() });
}
