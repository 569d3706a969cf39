import * as dashboard from "../../src/generated/dashboard-operations.js";
import * as control from "../../src/generated/mock-control-operations.js";
import * as rebuild from "../../src/generated/rebuild-operations.js";
import type { CallbackDelivery } from "../domain/rebuild/index.js";
import { controlRoutes } from "../routes/control-routes.js";
import { dashboardRoutes } from "../routes/dashboard-routes.js";
import { rebuildRoutes } from "../routes/rebuild-routes.js";
import type { RouteHandler } from "../routes/types.js";
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

/**
 * What an adapter adds to `createMockDispatcher`'s options (not part of the public options): handlers
 * it supplies for operations of the control API, by operationId (the node server's console page and
 * event stream; without them those routes answer their documented 404).
 */
export interface AdapterDispatcherOptions extends MockDispatcherOptions {
  supplied?: Readonly<Partial<Record<keyof typeof control.operations, RouteHandler<WorldCore>>>>;
}

/**
 * The contract's two APIs where the mock serves them on `origin` (unless `urls` says otherwise), at
 * their documents' base paths (the dashboard at `/v1`), the rebuild API answering only below its
 * `x-path-prefix` (the rest of its origin is left alone). The proxy serves them at the same places.
 */
export function publicApis(
  origin: string,
  urls: MockBaseUrls = {},
): readonly [MountedApi<WorldCore>, MountedApi<WorldCore>] {
  return [
    {
      baseUrl: urls.dashboardBaseUrl ?? origin + dashboard.basePath,
      scope: dashboard.pathPrefix,
      routes: dashboardRoutes,
      bodyLimit: dashboard.bodyLimit,
      kind: "public",
      journalAs: "dashboard",
    },
    {
      baseUrl: urls.rebuildBaseUrl ?? origin + rebuild.basePath,
      scope: rebuild.pathPrefix,
      routes: rebuildRoutes,
      bodyLimit: rebuild.bodyLimit,
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
  options: AdapterDispatcherOptions = {},
): Dispatcher & { dispose(): void } {
  const core = coreOf(world);
  const { observe, onInternalError, supplied } = options;
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
      {
        baseUrl: world.origin + control.basePath,
        scope: control.pathPrefix,
        routes: controlRoutes,
        kind: "control",
        bodyLimit: control.bodyLimit,
      },
    ],
    faults: core.faults,
    takeRule: core.takeRule,
    random: core.random,
    journal: core.journal,
    ...(onInternalError ? { onInternalError } : {}),
    ...(observe ? { observe } : {}),
    ...(supplied ? { supplied: supplied as Readonly<Record<string, RouteHandler<WorldCore>>> } : {}),
  });
  // The world outlives an adapter (a server closed, a world served again): its watch ends with it.
  return Object.assign(dispatcher, { dispose: () => stopObserving?.() });
}
