import { controlRoutes } from "../routes/control-routes.js";
import { dashboardRoutes } from "../routes/dashboard-routes.js";
import { rebuildRoutes } from "../routes/rebuild-routes.js";
import type { MockWorld } from "../world.js";
import { createCallbackTransport } from "./callback-transport.js";
import { createDispatcher, type Dispatcher } from "./dispatch.js";

export interface MockBaseUrls {
  /** Default `<world origin>/v1`. */
  dashboardBaseUrl?: string;
  /** Default the world's origin. */
  rebuildBaseUrl?: string;
}

export interface MockDispatcherOptions extends MockBaseUrls {
  /** Called with errors that are bugs in the mock (they answer 500). */
  onInternalError?: (error: unknown) => void;
}

/** The rebuild API answers only below this path; the rest of its origin is left alone. */
const REBUILD_SCOPE = "/api/integration/partners/hostpanel";

/**
 * Both APIs and the control API mounted on a world, with callbacks wired to go out through the
 * same dispatcher (the built-in sink) or the network. Every adapter starts from this.
 */
export function createMockDispatcher(world: MockWorld, options: MockDispatcherOptions = {}): Dispatcher {
  const dispatch = createDispatcher({
    world,
    apis: [
      {
        baseUrl: options.dashboardBaseUrl ?? `${world.origin}/v1`,
        scope: "",
        routes: dashboardRoutes,
        faultable: true,
      },
      {
        baseUrl: options.rebuildBaseUrl ?? world.origin,
        scope: REBUILD_SCOPE,
        routes: rebuildRoutes,
        faultable: true,
      },
      { baseUrl: `${world.origin}/__mock`, scope: "", routes: controlRoutes, faultable: false },
    ],
    faults: () => world.faults,
    random: world.random,
    ...(options.onInternalError ? { onInternalError: options.onInternalError } : {}),
  });
  world.useTransport(createCallbackTransport(dispatch));
  return dispatch;
}
