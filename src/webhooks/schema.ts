import * as z from "zod";
import { isHttpUrl } from "../core/formats.js";

export const REBUILD_COMPLETED_EVENT = "partner_project_rebuild_completed";

const common = {
  event_type: z.literal(REBUILD_COMPLETED_EVENT),
  request_id: z.string().min(1),
  partner_id: z.int().positive(),
  project_id: z.string().min(1),
  source_url: z.string().min(1),
};

// Unknown fields are stripped (z.object's default): the returned event has exactly the documented
// fields and types. The contract forbids the other status's fields (`false` schemas), hence never().
const succeeded = z.object({
  ...common,
  status: z.literal("success"),
  // A preview is opened in a browser, so only http(s) is accepted: a `javascript:` URL rendered as
  // a link by the receiving app would be an injection vector.
  preview_url: z.string().refine(isHttpUrl, "must be an absolute http or https URL"),
  error_code: z.never().exactOptional(),
  error_message: z.never().exactOptional(),
});

const failed = z.object({
  ...common,
  status: z.literal("failed"),
  preview_url: z.never().exactOptional(),
  error_code: z.string().exactOptional(),
  error_message: z.string().exactOptional(),
});

export const rebuildCompletedCallbackSchema = z.discriminatedUnion("status", [succeeded, failed]);

/** The `partner_project_rebuild_completed` callback of a rebuild that reached `success`. */
export type RebuildSucceededCallback = z.infer<typeof succeeded>;
/** The callback of a rebuild that reached `failed`; `error_code` and `error_message` are sent when available. */
export type RebuildFailedCallback = z.infer<typeof failed>;
/** The `partner_project_rebuild_completed` callback, told apart by `status`. */
export type RebuildCompletedCallback = z.infer<typeof rebuildCompletedCallbackSchema>;
