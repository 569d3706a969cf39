/**
 * The mock, runtime-neutral: worlds, the clock, seeds and MSW handlers. `./mocks/node` adds the
 * standalone node:http server; `./mocks/browser` the service-worker setup. A world's domains are
 * internal: this entry point exports the world's facade and what it takes and gives.
 * @module rebuild-dashboard-kit/mocks
 */

import { createMockDispatcher, type MockDispatcherOptions } from "./http/mock-dispatcher.js";
import { createMswHandlers } from "./http/msw-handlers.js";
import type { MockWorld } from "./world.js";

export type {
  components as MockControlComponents,
  operations as MockControlOperations,
} from "../src/generated/mock-control.js";
export { createClock } from "./clock.js";
export type {
  ControlInput,
  ControlOperationId,
  ControlOutput,
  ControlPath,
  ControlQuery,
  MockControlSchemas,
  RequestsQuery,
} from "./control/operations.js";
export {
  ClockLimitError,
  type ClockOptions,
  type ClockStep,
  type MockClock,
  type TimerPort,
} from "./domain/clock.js";
export { type DashboardSeed, defaultDashboardSeed } from "./domain/dashboard/index.js";
export { defineSeed, type SeedDefinition } from "./domain/define-seed.js";
export type { FaultDecision, FaultSettings } from "./domain/faults.js";
export { type Random, seededRandom } from "./domain/random.js";
export {
  type CallbackDelivery,
  type CallbackTransport,
  type DeliveryRecord,
  defaultRebuildSeed,
  type RebuildSeed,
} from "./domain/rebuild/index.js";
export type { ObservedRequest } from "./http/dispatch.js";
export type { MockBaseUrls, MockDispatcherOptions, MockObservation } from "./http/mock-dispatcher.js";
// What an observation carries (`ObservedRequest`): a request and its answer as every adapter hands them over.
export type { HeaderReader, MockRequest, MockResponse } from "./routes/types.js";
export {
  createMockWorld,
  DEFAULT_ORIGIN,
  type MockControl,
  type MockSeed,
  type MockWorld,
  type MockWorldOptions,
  type MockWorldSnapshot,
  type MockWorldState,
  type RestoreOptions,
} from "./world.js";

/**
 * MSW request handlers for both APIs and the control API, backed by `world`. Requests outside the
 * mock's paths fall through to your other handlers.
 */
export function createHandlers(world: MockWorld, options: MockDispatcherOptions = {}) {
  return createMswHandlers(createMockDispatcher(world, options));
}
