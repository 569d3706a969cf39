/** Browser entry point: everything in `./mocks` plus the MSW service-worker setup. */
import { setupWorker } from "msw/browser";
import { unhandledRequestOption } from "./http/msw-handlers.js";
import { createHandlers, createMockWorld, type MockBaseUrls, type MockWorld } from "./index.js";

export * from "./index.js";

export interface MockWorkerOptions extends MockBaseUrls {
  /** Default: a world whose origin is the page's, so `/v1`, the rebuild path and `/__mock` are same-origin. */
  world?: MockWorld;
  /** Where the page serves MSW's worker script (copy it with `npx msw init public/`). Default `/mockServiceWorker.js`. */
  serviceWorkerUrl?: string;
  /** Silences MSW's console messages. */
  quiet?: boolean;
}

/**
 * Starts the mock in the browser. Await it before the app's first request: the worker only
 * intercepts once it controls the page.
 */
export async function startMockWorker(options: MockWorkerOptions = {}) {
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
