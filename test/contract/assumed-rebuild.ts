// The elements of openapi/rebuild.yaml that the source document (partner-site-rebuild-api.md) does not
// state, as RFC 6901 JSON Pointers. Each must carry `x-assumed: true` and a description; every other
// element must carry no mark. This list is reviewed against the source, not generated from the YAML:
// change it only when the source or contract-decisions.md changes.

const submit = "/paths/~1api~1integration~1partners~1hostpanel~1rebuilds/post";
const callback = "/webhooks/partner_project_rebuild_completed/post";

export const assumedRebuild: readonly string[] = [
  // Rejection statuses: the source says requests are rejected but gives no status codes. The
  // rate-limit body and RATE_LIMIT_EXCEEDED are confirmed; the 429 status is not.
  `${submit}/responses/400`,
  `${submit}/responses/401`,
  `${submit}/responses/403`,
  `${submit}/responses/413`,
  `${submit}/responses/415`,
  `${submit}/responses/422`,
  `${submit}/responses/429`,
  `${submit}/responses/default`,
  // The 405 answer's Allow header, as the dashboard declares it.
  `${submit}/responses/default/headers/Allow`,

  // The 401 challenge: the source says the request is rejected, not how it says what to send.
  "/components/headers/WWW-Authenticate",

  // Rate-limit headers: the source gives the limit, no headers.
  "/components/headers/RateLimit-Limit",
  "/components/headers/RateLimit-Remaining",
  "/components/headers/RateLimit-Reset",
  "/components/headers/Retry-After",

  // Request fields are confirmed; their length limits and the exact public-host rules are not.
  "/components/schemas/RebuildRequest/properties/sourceUrl",
  "/components/schemas/RebuildRequest/properties/prompt",

  // The general error envelope (only the rate-limit body is given by the source) and field errors.
  "/components/schemas/ErrorResponse",
  "/components/schemas/ErrorResponse/properties/message",
  "/components/schemas/ErrorResponse/properties/error",
  "/components/schemas/ErrorResponse/properties/error/properties/code",
  "/components/schemas/FieldError",
  "/components/schemas/FieldError/properties/type",
  "/components/schemas/FieldError/properties/path",
  "/components/schemas/FieldError/properties/message",
  "/components/schemas/ValidationError",
  "/components/schemas/ValidationError/allOf/1/properties/error",
  "/components/schemas/ValidationError/allOf/1/properties/error/properties/code",
  "/components/schemas/ValidationError/allOf/1/properties/errors",

  // Callback: the event, its delivery to the partner's endpoint and its payload are confirmed; the HTTP
  // method and encoding, how the webhook API key is sent, the acknowledgement and the retry policy are not.
  callback,
  `${callback}/responses/2XX`,
  `${callback}/responses/default`,
  "/components/securitySchemes/webhookApiKey",
];
