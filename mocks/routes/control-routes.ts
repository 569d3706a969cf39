import type { operations } from "../../src/generated/mock-control.js";
import { controlMethods } from "../../src/generated/mock-control-methods.js";
import { operations as registry } from "../../src/generated/mock-control-operations.js";
import {
  type OperationInputs,
  routes,
  operations as validators,
} from "../../src/generated/mock-control-validators.js";
import type { ControlOperationId } from "../control/operations.js";
import { DomainError } from "../domain/errors.js";
import type { WorldCore } from "../world.js";
import { readBodyText } from "./body.js";
import { type ApiGuard, mountOperations } from "./operation-routes.js";

/**
 * What the console and its events answer where no standalone server serves them (MSW, a bare
 * dispatcher): the node server supplies these two routes' handlers (mocks/http/console-endpoints.ts).
 */
const standaloneOnly = (what: string): never => {
  throw new DomainError(
    "NOT_FOUND",
    `${what} is served by the standalone mock server only (npm start, npx rebuild-dashboard-kit), not under MSW`,
  );
};

/** The control API checks nothing before an operation: it is a development tool for the local machine. */
const guard: ApiGuard<WorldCore, object> = (_request, next) => next({});

type Handlers = Parameters<
  typeof mountOperations<WorldCore, typeof routes, OperationInputs, operations, object>
>[0]["handlers"];

/**
 * The route of every operation a world offers (src/generated/mock-control-methods.ts, decisions/050):
 * its inputs, checked by the operation's validators, go to the world's handler of the same
 * operationId, and its answer with the operation's success status. An operation the world answers
 * only once its clock work ran is asynchronous; the others answer synchronously.
 */
function worldOperationRoutes(): Handlers {
  type Inputs = {
    world: WorldCore;
    path?: Readonly<Record<string, unknown>>;
    body?: unknown;
    query?: unknown;
  };
  const table: Record<string, Record<string, unknown>> = {};
  for (const id of Object.keys(controlMethods) as ControlOperationId[]) {
    const { method, path, pathParameters, input, status, waits } = controlMethods[id];
    // The handler's parameters are the table's, in its order: both are generated from one operation.
    const call = (inputs: Inputs) =>
      (inputs.world.control[id] as (...args: unknown[]) => unknown)(
        ...pathParameters.map((name) => inputs.path?.[name]),
        ...(input === "none" ? [] : [inputs[input]]),
      );
    const handle = waits
      ? async (inputs: Inputs) => ({ status, body: await call(inputs) })
      : (inputs: Inputs) => ({ status, body: call(inputs) });
    // The body limit is the operation's own, from the registry (x-body-limit; decisions/049).
    table[path] = { ...table[path], [method]: handle };
  }
  return table as unknown as Handlers;
}

const worldOperations = worldOperationRoutes();

/**
 * The development-only control API under `/__mock` (openapi/mock-control.yaml): the world's
 * operations, and the built-in webhook receiver and the console's two paths, which are not the
 * world's.
 */
export const controlRoutes = mountOperations<WorldCore, typeof routes, OperationInputs, operations, object>({
  routes,
  registry,
  validators,
  guard,
  handlers: {
    ...worldOperations,
    "/webhook-sink/{partnerId}": {
      ...worldOperations["/webhook-sink/{partnerId}"],
      post: ({ world, path, req }) => {
        world.rebuild.sinkReceive(
          path.partnerId,
          Object.fromEntries(req.headers.entries()),
          readBodyText(req),
        );
        return { status: 200, body: { received: true } };
      },
    },
    "/console": { get: () => standaloneOnly("The mock console") },
    "/events": { get: () => standaloneOnly("The console's event stream") },
  },
});
