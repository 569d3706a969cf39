/**
 * Every element of openapi/dashboard.yaml that the source document
 * (sources/dashboard-management-api.md) does not state, as JSON Pointers (RFC 6901).
 * Each of these, and nothing else, must carry `x-assumed: true` and a description.
 *
 * Derived from reading the source, not from the YAML. What the source states, and is therefore NOT
 * in this list:
 * - the bearer security scheme; GET /si/servers, GET and POST /dashboard/api-tokens;
 * - the query parameters page, pageSize (components/parameters Page, PageSize) and filter;
 * - the POST /dashboard/api-tokens request body and its fields name and claims (their requiredness
 *   is assumed, but a `required` list has no element of its own: it is said in prose);
 * - the statuses 400, 401 and 403, wherever they are documented (the source's error table and
 *   authentication rules apply to every request);
 * - Server and its fields, ServerList {totalCount, data}, ApiToken and its fields, CreatedApiToken
 *   (the creation response lists every field plus token), CreatedApiTokenResponse {data},
 *   ApiTokenList.data (the token list "wraps the items as data"), CreateApiTokenRequest,
 *   the claim schemas and their fields name, readonly, attributes (claims travel in requests and
 *   responses), McpClaimAttributes {serverGuid, panelUser}, FieldError {type, path, message}.
 * Partial assumptions inside confirmed elements (minimum page and pageSize, the upper bound of page,
 * required fields, defaults of readonly, trimming) are written as "(Assumed: ...)" in prose.
 */
export const assumedDashboard: readonly string[] = [
  // Operations the source does not show (path, method, payloads).
  "/paths/~1si~1servers/post",
  "/paths/~1si~1servers~1{guid}/delete",
  "/paths/~1dashboard~1api-tokens~1{id}/get",
  "/paths/~1dashboard~1api-tokens~1{id}/delete",
  "/paths/~1accounts~1invitations/post",
  "/paths/~1accounts~1team-guid/get",

  // Parameters of assumed operations.
  "/components/parameters/ServerGuid",
  "/components/parameters/ApiTokenId",
  "/paths/~1accounts~1team-guid/get/parameters/0",

  // Request bodies of assumed operations.
  "/paths/~1si~1servers/post/requestBody",
  "/paths/~1accounts~1invitations/post/requestBody",

  // GET /si/servers: the success status is not shown; nor is any status besides 400/401/403.
  "/paths/~1si~1servers/get/responses/200",
  "/paths/~1si~1servers/get/responses/default",
  "/paths/~1si~1servers/get/responses/default/headers/Allow",

  // POST /si/servers
  "/paths/~1si~1servers/post/responses/201",
  "/paths/~1si~1servers/post/responses/413",
  "/paths/~1si~1servers/post/responses/415",
  "/paths/~1si~1servers/post/responses/default",
  "/paths/~1si~1servers/post/responses/default/headers/Allow",

  // DELETE /si/servers/{guid}
  "/paths/~1si~1servers~1{guid}/delete/responses/204",
  "/paths/~1si~1servers~1{guid}/delete/responses/404",
  "/paths/~1si~1servers~1{guid}/delete/responses/default",
  "/paths/~1si~1servers~1{guid}/delete/responses/default/headers/Allow",

  // GET /dashboard/api-tokens
  "/paths/~1dashboard~1api-tokens/get/responses/200",
  "/paths/~1dashboard~1api-tokens/get/responses/default",
  "/paths/~1dashboard~1api-tokens/get/responses/default/headers/Allow",

  // POST /dashboard/api-tokens
  "/paths/~1dashboard~1api-tokens/post/responses/201",
  "/paths/~1dashboard~1api-tokens/post/responses/413",
  "/paths/~1dashboard~1api-tokens/post/responses/415",
  "/paths/~1dashboard~1api-tokens/post/responses/default",
  "/paths/~1dashboard~1api-tokens/post/responses/default/headers/Allow",

  // GET /dashboard/api-tokens/{id}
  "/paths/~1dashboard~1api-tokens~1{id}/get/responses/200",
  "/paths/~1dashboard~1api-tokens~1{id}/get/responses/404",
  "/paths/~1dashboard~1api-tokens~1{id}/get/responses/default",
  "/paths/~1dashboard~1api-tokens~1{id}/get/responses/default/headers/Allow",

  // DELETE /dashboard/api-tokens/{id}
  "/paths/~1dashboard~1api-tokens~1{id}/delete/responses/204",
  "/paths/~1dashboard~1api-tokens~1{id}/delete/responses/404",
  "/paths/~1dashboard~1api-tokens~1{id}/delete/responses/default",
  "/paths/~1dashboard~1api-tokens~1{id}/delete/responses/default/headers/Allow",

  // POST /accounts/invitations
  "/paths/~1accounts~1invitations/post/responses/202",
  "/paths/~1accounts~1invitations/post/responses/413",
  "/paths/~1accounts~1invitations/post/responses/415",
  "/paths/~1accounts~1invitations/post/responses/default",
  "/paths/~1accounts~1invitations/post/responses/default/headers/Allow",

  // GET /accounts/team-guid
  "/paths/~1accounts~1team-guid/get/responses/200",
  "/paths/~1accounts~1team-guid/get/responses/404",
  "/paths/~1accounts~1team-guid/get/responses/default",
  "/paths/~1accounts~1team-guid/get/responses/default/headers/Allow",

  // The 401 challenge on every operation: the source says 401, not what the challenge says.
  "/components/headers/WWW-Authenticate",

  // Server connection payloads (not shown).
  "/components/schemas/ServerToConnect",
  "/components/schemas/ServerToConnect/properties/address",
  "/components/schemas/ServerToConnect/properties/product",
  "/components/schemas/ConnectServersRequest",
  "/components/schemas/ConnectServersRequest/properties/servers",
  "/components/schemas/ConnectedServers",
  "/components/schemas/ConnectedServers/properties/data",
  // Each claim name at most once, stated with `contains` and `maxContains: 1` per name.
  "/components/schemas/CreateApiTokenRequest/properties/claims/allOf/0/if/contains/properties/name",
  "/components/schemas/CreateApiTokenRequest/properties/claims/allOf/0/then/contains/properties/name",
  "/components/schemas/CreateApiTokenRequest/properties/claims/allOf/1/if/contains/properties/name",
  "/components/schemas/CreateApiTokenRequest/properties/claims/allOf/1/then/contains/properties/name",

  // "manage-api-tokens takes no attributes": accepting an empty object in requests is assumed.
  "/components/schemas/ManageApiTokensClaimInput/properties/attributes",

  // The token list is "wraps the items as data"; totalCount is shown only for the server list.
  "/components/schemas/ApiTokenList/properties/totalCount",

  // Reading one token (not shown).
  "/components/schemas/ApiTokenResponse",
  "/components/schemas/ApiTokenResponse/properties/data",

  // What a valid email address is (not shown): the HTML `type=email` production, once.
  "/components/schemas/EmailAddress",

  // Team invitation and team records: fields not shown.
  "/components/schemas/SendInvitationsRequest",
  "/components/schemas/SendInvitationsRequest/properties/emails",
  "/components/schemas/Invitation",
  "/components/schemas/Invitation/properties/email",
  "/components/schemas/Invitation/properties/status",
  "/components/schemas/InvitationList",
  "/components/schemas/InvitationList/properties/data",
  "/components/schemas/TeamGuid",
  "/components/schemas/TeamGuid/properties/email",
  "/components/schemas/TeamGuid/properties/teamGuid",
  "/components/schemas/TeamGuidResponse",
  "/components/schemas/TeamGuidResponse/properties/data",

  // Error bodies: only "for each invalid field, a type, a path and a message" is shown.
  "/components/schemas/ErrorResponse",
  "/components/schemas/ErrorResponse/properties/message",
  "/components/schemas/ErrorResponse/properties/error",
  "/components/schemas/ErrorResponse/properties/error/properties/code",
  "/components/schemas/ValidationError",
  "/components/schemas/ValidationError/properties/message",
  "/components/schemas/ValidationError/properties/error",
  "/components/schemas/ValidationError/properties/error/properties/code",
  "/components/schemas/ValidationError/properties/errors",
];
