// The control API's types (decisions/031): MockControlClient and a world take and give the same types
// per operation, all derived from src/generated/mock-control.ts, so a wrong partner setting (an
// unknown field, a wrong type) is a compile error in both. A type test (`*.test-d.ts`): vitest's
// typecheck (`npm test`) and `npm run typecheck` check it; nothing here runs.
import { describe, expectTypeOf, it } from "vitest";
import type { ControlInput, ControlOutput, MockControlSchemas } from "../../mocks/control/index.js";
import { MockControlClient } from "../../mocks/control/index.js";
import { createMockWorld, type MockControl, type MockWorld } from "../../mocks/index.js";
import type { APIPromise, RequestOptions } from "../../src/index.js";

/** A client method's parameters without its per-call options (always the last one). */
type WithoutOptions<Parameters extends unknown[]> = Parameters extends [
  ...infer Rest,
  (RequestOptions | undefined)?,
]
  ? Rest
  : never;

type Client = MockControlClient;

describe("one input and one output type per operation, shared by the client and the world", () => {
  it("every operation takes the same parameters and gives the same result in both", () => {
    type Same<Method extends keyof MockControl & keyof Client> = [
      WithoutOptions<Parameters<Client[Method]>>,
      Awaited<ReturnType<Client[Method]>>,
    ];
    type World<Method extends keyof MockControl> = [
      Parameters<MockControl[Method]>,
      Awaited<ReturnType<MockControl[Method]>>,
    ];

    expectTypeOf<Same<"reset">>().toEqualTypeOf<World<"reset">>();
    expectTypeOf<Same<"state">>().toEqualTypeOf<World<"state">>();
    expectTypeOf<Same<"snapshot">>().toEqualTypeOf<World<"snapshot">>();
    // The world's restore also takes `{ resume }`, which only a state file in the same process means.
    expectTypeOf<Parameters<Client["restore"]>[0]>().toEqualTypeOf<Parameters<MockControl["restore"]>[0]>();
    expectTypeOf<Awaited<ReturnType<Client["restore"]>>>().toEqualTypeOf<
      ReturnType<MockControl["restore"]>
    >();
    expectTypeOf<Same<"advanceClock">>().toEqualTypeOf<World<"advanceClock">>();
    expectTypeOf<Same<"upsertPartner">>().toEqualTypeOf<World<"upsertPartner">>();
    expectTypeOf<Same<"rotatePartnerKey">>().toEqualTypeOf<World<"rotatePartnerKey">>();
    expectTypeOf<Same<"completeRebuild">>().toEqualTypeOf<World<"completeRebuild">>();
    expectTypeOf<Same<"cloneRebuild">>().toEqualTypeOf<World<"cloneRebuild">>();
    expectTypeOf<Same<"openMagicLink">>().toEqualTypeOf<World<"openMagicLink">>();
    expectTypeOf<Same<"listDeliveries">>().toEqualTypeOf<World<"listDeliveries">>();
    expectTypeOf<Same<"listSinkEntries">>().toEqualTypeOf<World<"listSinkEntries">>();
    expectTypeOf<Same<"getFaults">>().toEqualTypeOf<World<"getFaults">>();
    expectTypeOf<Same<"setFaults">>().toEqualTypeOf<World<"setFaults">>();
    expectTypeOf<Same<"listRequests">>().toEqualTypeOf<World<"listRequests">>();
  });

  it("the client has exactly the world's operations, each an APIPromise", () => {
    type Operations = Exclude<keyof MockControl, never>;
    expectTypeOf<Exclude<keyof Client, Operations>>().toEqualTypeOf<never>();
    expectTypeOf<Exclude<Operations, keyof Client>>().toEqualTypeOf<never>();
    expectTypeOf<ReturnType<Client["state"]>>().toEqualTypeOf<APIPromise<MockControlSchemas["MockState"]>>();
  });

  it("the types are the generated schemas", () => {
    expectTypeOf<ControlInput<"upsertPartner">>().toEqualTypeOf<MockControlSchemas["PartnerSettingsPatch"]>();
    expectTypeOf<ControlOutput<"upsertPartner">>().toEqualTypeOf<MockControlSchemas["PartnerSettings"]>();
    expectTypeOf<ControlOutput<"listRequests">>().toEqualTypeOf<MockControlSchemas["RequestJournal"]>();
    expectTypeOf<ControlOutput<"resetMock">>().toEqualTypeOf<undefined>();
    expectTypeOf<MockWorld["upsertPartner"]>().toEqualTypeOf<MockControl["upsertPartner"]>();
  });
});

describe("a wrong partner setting does not compile", () => {
  it("for the client and for the world alike", () => {
    const client = new MockControlClient({ baseUrl: "http://127.0.0.1:4010" });
    const world = createMockWorld();
    // Never called: only the compiler looks at these.
    const wrong = () => {
      // @ts-expect-error an unknown field (a typo of featureEnabled)
      void client.upsertPartner(1001, { featureEnable: false });
      // @ts-expect-error an unknown field (a typo of featureEnabled)
      world.upsertPartner(1001, { featureEnable: false });
      // @ts-expect-error a wrong type: rateLimitPerHour is a number
      void client.upsertPartner(1001, { rateLimitPerHour: "30" });
      // @ts-expect-error a wrong type: rateLimitPerHour is a number
      world.upsertPartner(1001, { rateLimitPerHour: "30" });
      // @ts-expect-error a wrong type: webhookApiKey is a string or null
      void client.upsertPartner(1001, { webhookApiKey: 42 });
      // @ts-expect-error a wrong type: webhookApiKey is a string or null
      world.upsertPartner(1001, { webhookApiKey: 42 });
      // @ts-expect-error a brand without its required URLs
      void client.upsertPartner(1001, { brands: [{ name: "Acme", serverIps: [] }] });
      // @ts-expect-error a brand without its required URLs
      world.upsertPartner(1001, { brands: [{ name: "Acme", serverIps: [] }] });
      // @ts-expect-error the partner id is a number
      void client.upsertPartner("1001", {});
      // @ts-expect-error the partner id is a number
      world.upsertPartner("1001", {});
      // @ts-expect-error not an operation of the service contracts
      void client.listRequests({ operation: "resetMock" });
      // @ts-expect-error not an operation of the service contracts
      world.listRequests({ operation: "resetMock" });
      // @ts-expect-error completeRebuild's status is success or failed
      void client.completeRebuild("id", { status: "done" });
      // @ts-expect-error completeRebuild's status is success or failed
      void world.completeRebuild("id", { status: "done" });
    };
    // What is right compiles in both.
    const right = () => {
      void client.upsertPartner(1001, { featureEnabled: false, webhookApiKey: null, rateLimitPerHour: 30 });
      world.upsertPartner(1001, { featureEnabled: false, webhookApiKey: null, rateLimitPerHour: 30 });
      void client.listRequests({ operation: "submitRebuild", status: 429 }, { timeoutMs: 1000 });
      world.listRequests({ operation: "submitRebuild", status: 429 });
      // A completion's status has a default (success), so it may be left out of the body.
      void client.completeRebuild("id", {});
      void world.completeRebuild("id", {});
    };
    expectTypeOf(wrong).toBeFunction();
    expectTypeOf(right).toBeFunction();
  });
});
