import type { CallbackDelivery, CallbackTransport } from "../domain/rebuild/index.js";
import { controlRoutes } from "../routes/control-routes.js";
import { dashboardRoutes } from "../routes/dashboard-routes.js";
import { rebuildRoutes } from "../routes/rebuild-routes.js";
import type { MockWorld } from "../world.js";
import { CALLBACK_TIMEOUT_MS, createCallbackTransport } from "./callback-transport.js";
import { createDispatcher, type Dispatcher, type ObservedRequest } from "./dispatch.js";

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

export interface MockDispatcherOptions extends MockBaseUrls {
  /** Called with errors that are bugs in the mock (they answer 500). */
  onInternalError?: (error: unknown) => void;
  /**
   * Sees every request the mock answers (both APIs and `/__mock`) and every callback attempt it
   * makes, once done: for request logs and contract checks. It must not change what it is given;
   * if it throws, `onInternalError` gets the error and the mock carries on.
   */
  observe?: (observation: MockObservation) => void;
  /**
   * How long a webhook receiver has to answer a callback before the attempt counts as failed
   * (default 10 000 ms, as the service decides). Tests of slow receivers make it shorter.
   */
  callbackTimeoutMs?: number;
}

/** The rebuild API answers only below this path; the rest of its origin is left alone. */
const REBUILD_SCOPE = "/api/integration/partners/hostpanel";

/**
 * Both APIs and the control API mounted on a world, with callbacks wired to go out through the
 * same dispatcher (the built-in sink) or the network. Every adapter starts from this.
 */
export function createMockDispatcher(world: MockWorld, options: MockDispatcherOptions = {}): Dispatcher {
  const { observe } = options;
  const dispatch = createDispatcher({
    world,
    apis: [
      {
        baseUrl: options.dashboardBaseUrl ?? `${world.origin}/v1`,
        scope: "",
        routes: dashboardRoutes,
        kind: "public",
      },
      {
        baseUrl: options.rebuildBaseUrl ?? world.origin,
        scope: REBUILD_SCOPE,
        routes: rebuildRoutes,
        kind: "public",
      },
      { baseUrl: `${world.origin}/__mock`, scope: "", routes: controlRoutes, kind: "control" },
    ],
    faults: () => world.faults,
    random: world.random,
    ...(options.onInternalError ? { onInternalError: options.onInternalError } : {}),
    ...(observe ? { observe: (exchange) => observe({ kind: "request", ...exchange }) } : {}),
  });
  const transport = createCallbackTransport(dispatch, {
    timeoutMs: options.callbackTimeoutMs ?? CALLBACK_TIMEOUT_MS,
  });
  world.useTransport(observe ? observedTransport(transport, observe, options.onInternalError) : transport);
  return dispatch;
}

function observedTransport(
  transport: CallbackTransport,
  observe: (observation: MockObservation) => void,
  onInternalError: ((error: unknown) => void) | undefined,
): CallbackTransport {
  return async (delivery) => {
    const outcome = await transport(delivery);
    try {
      observe({ kind: "callback", delivery, outcome });
    } catch (error) {
      onInternalError?.(error);
    }
    return outcome;
  };
}
