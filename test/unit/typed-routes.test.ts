// The route tables are typed by the contract (src/generated/*-validators.d.ts `routes`, openapi-typescript's
// `operations`); typed-routes.test-d.ts holds what does not compile. Here, what a table mounts.
import { describe, expect, it } from "vitest";
import { operations as dashboardValidators } from "../../src/generated/dashboard-validators.js";
import { dashboard, valid } from "./typed-routes-fixture.js";

describe("a route table keyed by the generated paths and operations", () => {
  it("mounts one route per operation of the document, with its method and path", () => {
    const mounted = dashboard(valid)();
    expect(mounted.map((route) => `${route.method} ${route.path}`)).toEqual(
      Object.values(dashboardValidators).map((operation) => `${operation.method} ${operation.template}`),
    );
  });

  it("refuses a left-out operation at run time too", () => {
    const { "/si/servers/{guid}": _left, ...rest } = valid;
    // @ts-expect-error: deleteServer has no handler (typed-routes.test-d.ts)
    expect(dashboard(rest)).toThrow(/no route for DELETE \/si\/servers\/\{guid\}/);
  });
});
