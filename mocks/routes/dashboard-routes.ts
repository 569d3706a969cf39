import type { operations } from "../../src/generated/dashboard.js";
import type { Principal } from "../domain/dashboard/index.js";
import type { MockWorld } from "../world.js";
import { readJsonBody } from "./body.js";
import type { SuccessReply } from "./typed-reply.js";
import { challenged, type MockRequest, type RouteDefinition } from "./types.js";

type OperationId = keyof operations;

interface DashboardContext {
  world: MockWorld;
  principal: Principal;
  req: MockRequest;
  params: Readonly<Record<string, string>>;
  /** Reads the JSON body (413, 415, 400 for syntax); called after authentication and authorization. */
  body(): unknown;
}

/**
 * The dashboard's 401 challenge (RFC 6750): the realm, plus `error="invalid_token"` when a token
 * was sent but is not valid (none when the request carried no credentials).
 */
function bearerChallenge(authorization: string | null): string {
  return authorization === null
    ? 'Bearer realm="dashboard"'
    : 'Bearer realm="dashboard", error="invalid_token"';
}

/** Every dashboard route authenticates (401) and authorizes (403) before it reads anything else. */
function route<Id extends OperationId>(
  method: string,
  path: string,
  operation: Id,
  run: (context: DashboardContext) => SuccessReply<operations[Id]>,
): RouteDefinition<MockWorld> {
  return {
    method,
    path,
    handle: ({ world, req, params }) => {
      const authorization = req.headers.get("authorization");
      let principal: Principal;
      try {
        principal = world.dashboard.authenticate(authorization);
      } catch (failure) {
        throw challenged(failure, { "www-authenticate": bearerChallenge(authorization) });
      }
      world.dashboard.authorize(principal, operation);
      return run({ world, principal, req, params, body: () => readJsonBody(req) });
    },
  };
}

/** The Dashboard management API, paths below its `/v1` base. */
export const dashboardRoutes: readonly RouteDefinition<MockWorld>[] = [
  route("GET", "/si/servers", "listServers", ({ world, principal, req }) => ({
    status: 200,
    body: world.dashboard.listServers(principal, req.url.searchParams),
  })),
  route("POST", "/si/servers", "connectServers", ({ world, principal, body }) => ({
    status: 201,
    body: world.dashboard.connectServers(principal, body()),
  })),
  route("DELETE", "/si/servers/{guid}", "deleteServer", ({ world, principal, params }) => {
    world.dashboard.deleteServer(principal, params.guid ?? "");
    return { status: 204, body: undefined };
  }),
  route("GET", "/dashboard/api-tokens", "listApiTokens", ({ world, principal, req }) => ({
    status: 200,
    body: world.dashboard.listApiTokens(principal, req.url.searchParams),
  })),
  route("POST", "/dashboard/api-tokens", "createApiToken", ({ world, principal, body }) => ({
    status: 201,
    body: world.dashboard.createApiToken(principal, body()),
  })),
  route("GET", "/dashboard/api-tokens/{id}", "getApiToken", ({ world, principal, params }) => ({
    status: 200,
    body: world.dashboard.getApiToken(principal, params.id ?? ""),
  })),
  route("DELETE", "/dashboard/api-tokens/{id}", "deleteApiToken", ({ world, principal, params }) => {
    world.dashboard.deleteApiToken(principal, params.id ?? "");
    return { status: 204, body: undefined };
  }),
  route("POST", "/accounts/invitations", "sendInvitations", ({ world, principal, body }) => ({
    status: 202,
    body: world.dashboard.sendInvitations(principal, body()),
  })),
  route("GET", "/accounts/team-guid", "getTeamGuid", ({ world, principal, req }) => ({
    status: 200,
    body: world.dashboard.getTeamGuid(principal, req.url.searchParams),
  })),
];
