/** Node entry point: everything in `./mocks` plus the standalone server. */

export type { RequestLogEntry } from "./http/node-listener.js";
export { type MockServerOptions, type RunningMockServer, startMockServer } from "./http/node-server.js";
export * from "./index.js";
