import type { RebuildCallbackPayload, RebuildRecord } from "./types.js";

/** Where a success rebuild's project can be previewed. */
export function previewUrlOf(projectId: string): string {
  return `https://preview.mock.example/projects/${projectId}`;
}

/** The callback body for a rebuild in a final state; optional fields appear only when the rebuild has them. */
export function callbackPayload(
  record: RebuildRecord & { status: "success" | "failed" },
): RebuildCallbackPayload {
  const common = {
    event_type: "partner_project_rebuild_completed",
    request_id: record.requestId,
    partner_id: record.partnerId,
    project_id: record.projectId,
    source_url: record.sourceUrl,
  } as const;
  if (record.status === "success") {
    return { ...common, status: "success", preview_url: record.previewUrl ?? previewUrlOf(record.projectId) };
  }
  return {
    ...common,
    status: "failed",
    ...(record.errorCode === undefined ? {} : { error_code: record.errorCode }),
    ...(record.errorMessage === undefined ? {} : { error_message: record.errorMessage }),
  };
}
