import type { RebuildCallbackPayload, RebuildRecord } from "./types.js";

const CALLBACK_EVENT_TYPE = "partner_project_rebuild_completed";

/** The callback body for a rebuild in a final state; optional fields appear only when the rebuild has them. */
export function callbackPayload(
  record: RebuildRecord & { status: "success" | "failed" },
): RebuildCallbackPayload {
  const payload: RebuildCallbackPayload = {
    event_type: CALLBACK_EVENT_TYPE,
    request_id: record.requestId,
    partner_id: record.partnerId,
    project_id: record.projectId,
    source_url: record.sourceUrl,
    status: record.status,
  };
  if (record.status === "success" && record.previewUrl !== undefined) payload.preview_url = record.previewUrl;
  if (record.status === "failed") {
    if (record.errorCode !== undefined) payload.error_code = record.errorCode;
    if (record.errorMessage !== undefined) payload.error_message = record.errorMessage;
  }
  return payload;
}
