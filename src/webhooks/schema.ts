// The callback's types and its shape, both generated from the contract's `webhooks` entry
// (openapi/rebuild.yaml); nothing here restates a field.
import type { webhooks } from "../generated/rebuild.js";
import { partnerProjectRebuildCompleted } from "../generated/rebuild-webhooks.js";

/** The `partner_project_rebuild_completed` callback, told apart by `status`. */
export type RebuildCompletedCallback =
  webhooks["partner_project_rebuild_completed"]["post"]["requestBody"]["content"]["application/json"];
/** The callback of a rebuild that reached `success`. */
export type RebuildSucceededCallback = Extract<RebuildCompletedCallback, { status: "success" }>;
/** The callback of a rebuild that reached `failed`; `error_code` and `error_message` are sent when available. */
export type RebuildFailedCallback = Extract<RebuildCompletedCallback, { status: "failed" }>;

/** The payload's exact shape (src/generated/rebuild-webhooks.ts). */
export const CALLBACK_SHAPE = partnerProjectRebuildCompleted;
