import type { operations } from "../../src/generated/mock-control.js";
import { operations as registry } from "../../src/generated/mock-control-operations.js";
import {
  type OperationInputs,
  routes,
  operations as validators,
} from "../../src/generated/mock-control-validators.js";
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

/**
 * The development-only control API under `/__mock` (openapi/mock-control.yaml): each route reads its
 * request and calls the world's operation of the same operationId, where its rules live.
 */
export const controlRoutes = mountOperations<WorldCore, typeof routes, OperationInputs, operations, object>({
  routes,
  registry,
  validators,
  guard,
  handlers: {
    "/reset": {
      post: ({ world }) => {
        world.control.reset();
        return { status: 204, body: undefined };
      },
    },
    "/state": { get: ({ world }) => ({ status: 200, body: world.control.state() }) },
    "/snapshot": {
      get: ({ world }) => ({ status: 200, body: world.control.snapshot() }),
      // Up to 64 MiB (the operation's x-body-limit): a world with a full webhook sink is large.
      put: ({ world, body }) => {
        world.control.restore(body);
        return { status: 204, body: undefined };
      },
    },
    "/clock/advance": {
      post: async ({ world, body }) => ({ status: 200, body: await world.control.advanceClock(body) }),
    },
    "/partners/{partnerId}": {
      put: ({ world, path, body }) => ({
        status: 200,
        body: world.control.upsertPartner(path.partnerId, body),
      }),
    },
    "/partners/{partnerId}/rotate-key": {
      post: ({ world, path }) => ({ status: 200, body: world.control.rotatePartnerKey(path.partnerId) }),
    },
    "/rebuilds/{requestId}/complete": {
      post: async ({ world, path, body }) => ({
        status: 200,
        body: await world.control.completeRebuild(path.requestId, body),
      }),
    },
    "/rebuilds/{requestId}/clone": {
      post: ({ world, path, body }) => ({
        status: 201,
        body: world.control.cloneRebuild(path.requestId, body),
      }),
    },
    "/magic-links/open": {
      post: ({ world, body }) => ({ status: 200, body: world.control.openMagicLink(body) }),
    },
    "/deliveries": { get: ({ world }) => ({ status: 200, body: world.control.listDeliveries() }) },
    "/webhook-sink/{partnerId}": {
      post: ({ world, path, req }) => {
        world.rebuild.sinkReceive(
          path.partnerId,
          Object.fromEntries(req.headers.entries()),
          readBodyText(req),
        );
        return { status: 200, body: { received: true } };
      },
      get: ({ world, path }) => ({ status: 200, body: world.control.listSinkEntries(path.partnerId) }),
    },
    "/console": { get: () => standaloneOnly("The mock console") },
    "/events": { get: () => standaloneOnly("The console's event stream") },
    "/faults": {
      get: ({ world }) => ({ status: 200, body: world.control.getFaults() }),
      put: ({ world, body }) => ({ status: 200, body: world.control.setFaults(body) }),
    },
    "/requests": {
      get: ({ world, query }) => ({ status: 200, body: world.control.listRequests(query) }),
    },
  },
});
