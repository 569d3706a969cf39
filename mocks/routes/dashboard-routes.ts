import type { operations } from "../../src/generated/dashboard.js";
import { credentialHeaders, operations as registry } from "../../src/generated/dashboard-operations.js";
import {
  type OperationInputs,
  routes,
  operations as validators,
} from "../../src/generated/dashboard-validators.js";
import type { DashboardOperation, Principal } from "../domain/dashboard/index.js";
import type { WorldCore } from "../world.js";
import { type ApiGuard, mountOperations } from "./operation-routes.js";
import { challenged } from "./types.js";

interface DashboardContext {
  principal: Principal;
}

/** Every dashboard operation authenticates (401) and authorizes (403) before it reads anything else. */
const guard: ApiGuard<WorldCore, DashboardContext, DashboardOperation> = (
  { world, req, operationId, identify },
  next,
) => {
  const authorization = req.headers.get(credentialHeaders.bearerAuth);
  let principal: Principal;
  try {
    principal = world.dashboard.authenticate(authorization);
  } catch (failure) {
    // The contract's challenge (RFC 6750): the one for a request without credentials, or the one
    // saying the token sent is not valid.
    const { challenges } = registry[operationId];
    throw challenged(failure, {
      "www-authenticate": authorization === null ? challenges.missing : challenges.invalid,
    });
  }
  identify({ tokenId: principal.tokenId });
  world.dashboard.authorize(principal, operationId);
  return next({ principal });
};

/** The Dashboard management API, paths below its `/v1` base. */
export const dashboardRoutes = mountOperations<
  WorldCore,
  typeof routes,
  OperationInputs,
  operations,
  DashboardContext
>({
  routes,
  registry,
  validators,
  guard,
  handlers: {
    "/si/servers": {
      get: ({ world, principal, query }) => ({
        status: 200,
        body: world.dashboard.listServers(principal, query),
      }),
      post: ({ world, principal, body }) => ({
        status: 201,
        body: world.dashboard.connectServers(principal, body),
      }),
    },
    "/si/servers/{guid}": {
      delete: ({ world, principal, path }) => {
        world.dashboard.deleteServer(principal, path.guid);
        return { status: 204, body: undefined };
      },
    },
    "/dashboard/api-tokens": {
      get: ({ world, principal, query }) => ({
        status: 200,
        body: world.dashboard.listApiTokens(principal, query),
      }),
      post: ({ world, principal, body }) => ({
        status: 201,
        body: world.dashboard.createApiToken(principal, body),
      }),
    },
    "/dashboard/api-tokens/{id}": {
      get: ({ world, principal, path }) => ({
        status: 200,
        body: world.dashboard.getApiToken(principal, path.id),
      }),
      delete: ({ world, principal, path }) => {
        world.dashboard.deleteApiToken(principal, path.id);
        return { status: 204, body: undefined };
      },
    },
    "/accounts/invitations": {
      post: ({ world, principal, body }) => ({
        status: 202,
        body: world.dashboard.sendInvitations(principal, body),
      }),
    },
    "/accounts/team-guid": {
      get: ({ world, principal, query }) => ({
        status: 200,
        body: world.dashboard.getTeamGuid(principal, query),
      }),
    },
  },
});
