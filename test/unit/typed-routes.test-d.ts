// The route tables are typed by the contract (src/generated/*-validators.d.ts `routes`, openapi-typescript's
// `operations`): a path, method or operation the document does not have, a missing one, an answer it
// does not document, or an input it does not take, is a compile error. A type test: vitest's
// typecheck (`npm test`) and `npm run typecheck` check each `@ts-expect-error` line below is an error.
import { describe, expectTypeOf, it } from "vitest";
import type { mountOperations } from "../../mocks/routes/operation-routes.js";
import { operations as dashboardRegistry } from "../../src/generated/dashboard-operations.js";
import { routes as dashboardRoutes } from "../../src/generated/dashboard-validators.js";
import type { operations as ControlOperations } from "../../src/generated/mock-control.js";
import {
  type OperationInputs as ControlInputs,
  type routes as controlRoutes,
  operations as controlValidators,
} from "../../src/generated/mock-control-validators.js";
import { type DashboardApi, dashboard, guard, valid } from "./typed-routes-fixture.js";

describe("a route table keyed by the generated paths and operations", () => {
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
    expectTypeOf(wrong).toBeArray();
  });

  it("refuses, at compile time, another document's validators and a guard that names another's operation", () => {
    type Api = DashboardApi;
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
    expectTypeOf([otherValidators, narrowGuard]).toBeArray();
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
    expectTypeOf([reset, wrongMethod, wrongAnswer]).toBeArray();
    expectTypeOf(controlValidators).toHaveProperty("resetMock");
  });
});
