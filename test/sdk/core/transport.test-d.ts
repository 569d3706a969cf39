// The transport's methods take their data types from the paths (transport.test.ts runs them). A type
// test: vitest's typecheck (`npm test`) and `npm run typecheck` check it; nothing here runs.
import { describe, expectTypeOf, it } from "vitest";
import type { APIPromise } from "../../../src/core/api-promise.js";
import { type Item, setup } from "./helpers.js";

describe("results", () => {
  it("infers each method's data type from the paths", () => {
    const { list, create, remove } = setup([]);
    expectTypeOf(list).returns.toEqualTypeOf<APIPromise<{ totalCount: number; data: Item[] }>>();
    expectTypeOf(create).returns.resolves.toEqualTypeOf<{ id: number; name: string; token: string }>();
    expectTypeOf(remove).returns.resolves.toBeUndefined();
  });
});
