// The route tables are typed by the contract (src/generated/*-validators.d.ts `routes`, openapi-typescript's
// `operations`): a path, method or operation the document does not have, a missing one, an answer it
// does not document, or an input it does not take, is a compile error. `npm run typecheck` checks the
// `@ts-expect-error` lines below: each must be an error, or the check fails.
import { describe, expect, it } from "vitest";
import { mountOperations } from "../../mocks/routes/operation-routes.js";
import type { MockResponse } from "../../mocks/routes/types.js";
import type { operations as DashboardOperations } from "../../src/generated/dashboard.js";
import { operations as dashboardRegistry } from "../../src/generated/dashboard-operations.js";
import {
  type OperationInputs as DashboardInputs,
  routes as dashboardRoutes,
  operations as dashboardValidators,
} from "../../src/generated/dashboard-validators.js";
import type { operations as ControlOperations } from "../../src/generated/mock-control.js";
import {
  type OperationInputs as ControlInputs,
  type routes as controlRoutes,
  operations as controlValidators,
} from "../../src/generated/mock-control-validators.js";

const guard = (_request: unknown, next: (context: object) => MockResponse | Promise<MockResponse>) =>
  next({});

const dashboard = (handlers: Parameters<typeof mountDashboard>[0]) => () => mountDashboard(handlers);
function mountDashboard(
  handlers: Parameters<
    typeof mountOperations<unknown, typeof dashboardRoutes, DashboardInputs, DashboardOperations, object>
  >[0]["handlers"],
) {
  return mountOperations<unknown, typeof dashboardRoutes, DashboardInputs, DashboardOperations, object>({
    routes: dashboardRoutes,
    registry: dashboardRegistry,
    validators: dashboardValidators,
    guard,
    handlers,
  });
}

const token = {
  id: 1,
  name: "n",
  type: "user" as const,
  claims: [],
  createdAt: "2026-01-01T00:00:00+00:00",
  lastUsedAt: null,
  expireAt: null,
};

/** One handler per operation of openapi/dashboard.yaml, each answering a documented success. */
const valid = {
  "/si/servers": {
    get: ({ query }: { query: DashboardInputs["listServers"]["query"] }) => ({
      status: 200 as const,
      body: { totalCount: query.page * 0, data: [] },
    }),
    post: () => ({ status: 201 as const, body: { data: [] } }),
  },
  "/si/servers/{guid}": { delete: () => ({ status: 204 as const, body: undefined }) },
  "/dashboard/api-tokens": {
    get: () => ({ status: 200 as const, body: { totalCount: 0, data: [] } }),
    post: () => ({ status: 201 as const, body: { data: { ...token, token: "secret" } } }),
  },
  "/dashboard/api-tokens/{id}": {
    get: () => ({ status: 200 as const, body: { data: token } }),
    delete: () => ({ status: 204 as const, body: undefined }),
  },
  "/accounts/invitations": {
    post: () => ({
      status: 202 as const,
      body: { data: [{ email: "a@example.com", status: "sent" as const }] },
    }),
  },
  "/accounts/team-guid": {
    get: () => ({ status: 200 as const, body: { data: { email: "a@example.com", teamGuid: "x" } } }),
  },
};

describe("a route table keyed by the generated paths and operations", () => {
  it("mounts one route per operation of the document, with its method and path", () => {
    const mounted = dashboard(valid)();
    expect(mounted.map((route) => `${route.method} ${route.path}`)).toEqual(
      Object.values(dashboardValidators).map((operation) => `${operation.method} ${operation.template}`),
    );
  });

  it("refuses, at compile time, what the contract does not have or say", () => {
    const teamGuid = valid["/accounts/team-guid"].get().body;
    const wrong = [
      // A path the contract does not have.
      // @ts-expect-error: "/si/server" is not a path of openapi/dashboard.yaml
      dashboard({ ...valid, "/si/server": { get: valid["/si/servers"].get } }),
      // A method the path does not have.
      // @ts-expect-error: PUT is not an operation of /si/servers
      dashboard({ ...valid, "/si/servers": { ...valid["/si/servers"], put: valid["/si/servers"].post } }),
      // An operation left out.
      // @ts-expect-error: deleteServer has no handler
      dashboard({ ...valid, "/si/servers/{guid}": {} }),
      // A status the operation does not document.
      dashboard({
        ...valid,
        "/accounts/team-guid": {
          // @ts-expect-error: getTeamGuid answers 200, never 201
          get: () => ({ status: 201 as const, body: teamGuid }),
        },
      }),
      // A body of another operation's answer.
      dashboard({
        ...valid,
        // @ts-expect-error: listServers answers a ServerList, not an ApiTokenResponse
        "/si/servers": { ...valid["/si/servers"], get: valid["/dashboard/api-tokens/{id}"].get },
      }),
      // An input the operation does not take.
      dashboard({
        ...valid,
        "/si/servers/{guid}": {
          // @ts-expect-error: deleteServer's path has `guid`, not `id`
          delete: ({ path }) => ({ status: 204 as const, body: path.id }),
        },
      }),
    ];
    // At run time a left-out operation is refused too; the rest would mount routes the contract does not describe.
    expect(wrong[2]).toThrow(/no route for DELETE \/si\/servers\/\{guid\}/);
  });

  it("refuses, at compile time, another document's validators and a guard that names another's operation", () => {
    type Api = Parameters<
      typeof mountOperations<unknown, typeof dashboardRoutes, DashboardInputs, DashboardOperations, object>
    >[0];
    const otherValidators: Api = {
      routes: dashboardRoutes,
      registry: dashboardRegistry,
      // @ts-expect-error: the control API's validators are not the dashboard's
      validators: controlValidators,
      guard,
      handlers: valid,
    };
    const narrowGuard: Api["guard"] = ({ operationId }, next) => {
      // @ts-expect-error: resetMock is an operation of the control API, never of the dashboard
      if (operationId === "resetMock") throw new Error("unreachable");
      return next({});
    };
    expect([otherValidators, narrowGuard]).toHaveLength(2);
  });

  it("types the control API's routes by openapi/mock-control.yaml the same way", () => {
    type Handlers = Parameters<
      typeof mountOperations<unknown, typeof controlRoutes, ControlInputs, ControlOperations, object>
    >[0]["handlers"];
    const reset: Handlers["/reset"] = { post: () => ({ status: 204, body: undefined }) };
    // @ts-expect-error: the reset operation is a POST
    const wrongMethod: Handlers["/reset"] = { put: () => ({ status: 204, body: undefined }) };
    // @ts-expect-error: getFaults answers the fault settings, not a partner's
    const wrongAnswer: Handlers["/faults"]["get"] = () => ({ status: 200, body: { id: 1 } });
    expect([reset, wrongMethod, wrongAnswer]).toHaveLength(3);
    expect(Object.keys(controlValidators)).toContain("resetMock");
  });
});
