// How the service builds a completion callback: its body and its headers. The mock's deliveries
// and the bin's send-callback command both build theirs here.
import { credentialHeaders } from "../../../src/generated/rebuild-operations.js";
import type { RebuildCallbackPayload, RebuildRecord } from "./types.js";

const CALLBACK_EVENT_TYPE = "partner_project_rebuild_completed";

/** What a callback tells about a finished rebuild: a rebuild record has these fields, and so does a hand-made test callback. */
export type CallbackFields = Pick<
  RebuildRecord,
  "requestId" | "partnerId" | "projectId" | "sourceUrl" | "previewUrl" | "errorCode" | "errorMessage"
> & { status: "success" | "failed" };

/** Where a successful rebuild's project can be previewed. */
export function previewUrlOf(projectId: string): string {
  return `https://preview.mock.example/projects/${encodeURIComponent(projectId)}`;
}

/** The callback body for a rebuild in a final state; optional fields appear only when the rebuild has them. */
export function callbackPayload(fields: CallbackFields): RebuildCallbackPayload {
  // Written out, not spread from a common part: one object per completion, built where a spread
  // costs microseconds (decisions/026).
  if (fields.status === "success") {
    return {
      event_type: CALLBACK_EVENT_TYPE,
      request_id: fields.requestId,
      partner_id: fields.partnerId,
      project_id: fields.projectId,
      source_url: fields.sourceUrl,
      status: "success",
      preview_url: fields.previewUrl ?? previewUrlOf(fields.projectId),
    };
  }
  // The status as given (not a literal): send-callback passes what its user typed, and the
  // contract's schema, checked after, is what refuses anything else.
  const payload: RebuildCallbackPayload = {
    event_type: CALLBACK_EVENT_TYPE,
    request_id: fields.requestId,
    partner_id: fields.partnerId,
    project_id: fields.projectId,
    source_url: fields.sourceUrl,
    status: fields.status,
  };
  if (fields.errorCode !== undefined) payload.error_code = fields.errorCode;
  if (fields.errorMessage !== undefined) payload.error_message = fields.errorMessage;
  return payload;
}

/**
 * The headers of a callback request, and nothing else: a JSON body, and the partner's webhook API
 * key in the header of the contract's `webhookApiKey` security scheme when one is configured.
 */
export function callbackHeaders(webhookApiKey: string | null): Record<string, string> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (webhookApiKey !== null) headers[credentialHeaders.webhookApiKey.toLowerCase()] = webhookApiKey;
  return headers;
}
