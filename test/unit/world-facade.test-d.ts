// The world's control operations take and give the types generated from openapi/mock-control.yaml
// (decisions/025). A type test: vitest's typecheck (`npm test`) and `npm run typecheck` check it;
// nothing here runs.
import { describe, expectTypeOf, it } from "vitest";
import { createMockWorld } from "../../mocks/index.js";
import type { components, operations } from "../../src/generated/mock-control.js";

describe("the control API's operations, in-process", () => {
  it("take and give the types generated from openapi/mock-control.yaml", () => {
    type Schemas = components["schemas"];
    type Body<Id extends keyof operations> =
      NonNullable<operations[Id]["requestBody"]> extends { content: { "application/json": infer Json } }
        ? Json
        : never;
    type Answer<Id extends keyof operations, Status extends number> =
      operations[Id]["responses"] extends Record<Status, { content: { "application/json": infer Json } }>
        ? Json
        : never;
    const world = createMockWorld();
    expectTypeOf(world.upsertPartner).parameter(1).toEqualTypeOf<Body<"upsertPartner"> | undefined>();
    expectTypeOf(world.upsertPartner).returns.toEqualTypeOf<Answer<"upsertPartner", 200>>();
    expectTypeOf(world.openMagicLink).parameter(0).toEqualTypeOf<Body<"openMagicLink">>();
    expectTypeOf(world.openMagicLink).returns.toEqualTypeOf<Answer<"openMagicLink", 200>>();
    expectTypeOf(world.cloneRebuild).returns.toEqualTypeOf<Answer<"cloneRebuild", 201>>();
    expectTypeOf(world.completeRebuild).returns.resolves.toEqualTypeOf<Answer<"completeRebuild", 200>>();
    expectTypeOf(world.advanceClock).parameter(0).toEqualTypeOf<Body<"advanceClock">>();
    expectTypeOf(world.listDeliveries).returns.toEqualTypeOf<Answer<"listDeliveries", 200>>();
    expectTypeOf(world.setFaults).returns.toEqualTypeOf<Schemas["Faults"]>();
    expectTypeOf(world.snapshot).returns.toEqualTypeOf<Answer<"getMockSnapshot", 200>>();
    expectTypeOf(world.restore).parameter(0).toEqualTypeOf<Body<"restoreMockSnapshot">>();
    // @ts-expect-error: a setting the control API does not have
    world.upsertPartner(1001, { plan: "gold" });
  });
});
