// Compile-time only: fails `tsc` when the zod schema and the contract (openapi/rebuild.yaml, through
// the generated types) disagree about the callback's shape.
import type { components, webhooks } from "../generated/rebuild.js";
import type { RebuildCompletedCallback, RebuildFailedCallback, RebuildSucceededCallback } from "./schema.js";

type Schemas = components["schemas"];
type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export type CallbackSchemaMatchesContract = [
  Expect<MutuallyAssignable<RebuildSucceededCallback, Schemas["RebuildSucceededCallback"]>>,
  Expect<MutuallyAssignable<RebuildFailedCallback, Schemas["RebuildFailedCallback"]>>,
  Expect<MutuallyAssignable<RebuildCompletedCallback, Schemas["RebuildCompletedCallback"]>>,
  Expect<
    MutuallyAssignable<
      RebuildCompletedCallback,
      webhooks["partner_project_rebuild_completed"]["post"]["requestBody"]["content"]["application/json"]
    >
  >,
];

type Expect<T extends true> = T;
