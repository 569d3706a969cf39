export const WEBHOOK_KEY = "whk_test_3f9a1c0e7b5d4a2f";

export const succeeded = {
  event_type: "partner_project_rebuild_completed",
  request_id: "req_0001",
  partner_id: 1001,
  project_id: "prj_0001",
  source_url: "https://www.example.com/",
  status: "success",
  preview_url: "https://preview.example.com/prj_0001",
} as const;

export const failed = {
  event_type: "partner_project_rebuild_completed",
  request_id: "req_0002",
  partner_id: 1001,
  project_id: "prj_0002",
  source_url: "https://shop.example.org/",
  status: "failed",
  error_code: "process_failed",
  error_message: "The source site could not be processed.",
} as const;

export interface CallbackRequestInit {
  readonly key?: string | null;
  readonly method?: string;
  readonly headers?: Record<string, string>;
}

/** A callback as the rebuild service sends it; `key: null` leaves X-API-Key out. */
export function callbackRequest(body: unknown, init: CallbackRequestInit = {}): Request {
  const headers = new Headers({ "content-type": "application/json", ...init.headers });
  const key = init.key === undefined ? WEBHOOK_KEY : init.key;
  if (key !== null) headers.set("x-api-key", key);
  const method = init.method ?? "POST";
  return new Request("https://partner.example.com/hooks/rebuild", {
    method,
    headers,
    ...(method === "GET" || method === "HEAD"
      ? {}
      : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
}
