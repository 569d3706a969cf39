/**
 * `rebuild-dashboard-kit/mocks/control`: the mock's control API over HTTP, for a mock running in
 * another process or a browser worker. It needs no msw; its types are the ones a world's operations
 * are typed by (decisions/031). Errors are the SDK's (`ApiError` and its subclasses, importable from
 * `rebuild-dashboard-kit`).
 * @module rebuild-dashboard-kit/mocks/control
 */

export type {
  components as MockControlComponents,
  operations as MockControlOperations,
} from "../../src/generated/mock-control.js";
export { MockControlClient } from "../../src/generated/mock-control-client.js";
export type { MockControlClientOptions } from "./control-call.js";
export type {
  ControlInput,
  ControlOperationId,
  ControlOutput,
  ControlPath,
  ControlQuery,
  MockControlSchemas,
  RequestsQuery,
} from "./operations.js";
