/**
 * Browser entry point: everything in `./mocks` plus the MSW service-worker setup.
 * @module rebuild-dashboard-kit/mocks/browser
 */

import { type SetupWorker, setupWorker } from "msw/browser";
import { unhandledRequestOption } from "./http/msw-handlers.js";
import { createHandlers, createMockWorld, type MockBaseUrls, type MockWorld } from "./index.js";

export * from "./index.js";

/** What `startMockWorker` takes: the world to serve, where the worker script is, and the APIs' base URLs. */
export interface MockWorkerOptions extends MockBaseUrls {
  /** Default: a world whose origin is the page's, so `/v1`, the rebuild path and `/__mock` are same-origin. */
  world?: MockWorld;
  /** Where the page serves MSW's worker script (copy it with `npx msw init public/`). Default `/mockServiceWorker.js`. */
  serviceWorkerUrl?: string;
  /** Silences MSW's console messages. */
  quiet?: boolean;
}

/** What `startMockWorker` resolves with once the worker controls the page. */
export interface RunningMockWorker {
  /** The world served: the control API in-process on the state the page's requests see. */
  world: MockWorld;
  /** MSW's worker, for what the fields here do not cover (`worker.use(...)` of your own handlers). */
  worker: SetupWorker;
  /** Stops intercepting; the world is left as it is. */
  stop: () => void;
}

/**
 * Starts the mock in the browser. Await it before the app's first request: the worker only
 * intercepts once it controls the page.
 */
export async function startMockWorker(options: MockWorkerOptions = {}): Promise<RunningMockWorker> {
  const world = options.world ?? createMockWorld({ origin: globalThis.location.origin });
  const { world: _world, serviceWorkerUrl, quiet, ...baseUrls } = options;
  const worker = setupWorker(...createHandlers(world, baseUrls));
  await worker.start({
    serviceWorker: { url: serviceWorkerUrl ?? "/mockServiceWorker.js" },
    // The app's other requests (its own backend, assets) go to the network, under msw 2 and 3 alike.
    ...unhandledRequestOption("bypass"),
    quiet: quiet ?? false,
  });
  return { world, worker, stop: () => worker.stop() };
}
