// A dashboard route table for typed-routes.test.ts (run time) and typed-routes.test-d.ts (types).
import { mountOperations } from "../../mocks/routes/operation-routes.js";
import type { MockResponse } from "../../mocks/routes/types.js";
import type { operations as DashboardOperations } from "../../src/generated/dashboard.js";
import { operations as dashboardRegistry } from "../../src/generated/dashboard-operations.js";
import {
  type OperationInputs as DashboardInputs,
  routes as dashboardRoutes,
  operations as dashboardValidators,
} from "../../src/generated/dashboard-validators.js";

/** The dashboard's route table as `mountOperations` takes it. */
export type DashboardApi = Parameters<
  typeof mountOperations<unknown, typeof dashboardRoutes, DashboardInputs, DashboardOperations, object>
>[0];

export const guard = (_request: unknown, next: (context: object) => MockResponse | Promise<MockResponse>) =>
  next({});

export const dashboard = (handlers: Parameters<typeof mountDashboard>[0]) => () => mountDashboard(handlers);
function mountDashboard(handlers: DashboardApi["handlers"]) {
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
export const valid = {
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
