/**
 * Node entry point: everything in `./mocks` plus the standalone server.
 * @module rebuild-dashboard-kit/mocks/node
 */

export type { EdgeObservedRequest, EdgeRule } from "./http/edge.js";
export type { EventStreamOptions } from "./http/event-streams.js";
export type { RequestLogEntry } from "./http/node-listener.js";
export {
  type MockServerObservation,
  type MockServerOptions,
  type RunningMockServer,
  startMockServer,
} from "./http/node-server.js";
export * from "./index.js";
