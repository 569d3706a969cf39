import type { ConfirmedGroup } from "./provenance.js";

/**
 * Every element of openapi/dashboard.yaml that the source document states, as JSON Pointers (RFC 6901),
 * grouped by the source text that states them (quoted verbatim from
 * sources/dashboard-management-api.md; the provenance test checks each quote is there).
 * Together with assumed-dashboard.ts this lists every element of the document: an element in
 * neither list fails the provenance test, so a new element needs a decision, "confirmed or assumed?".
 */
export const confirmedDashboard: readonly ConfirmedGroup[] = [
  {
    source: ["Every request carries the header `Authorization: Bearer <API_TOKEN>`."],
    pointers: ["/components/securitySchemes/bearerAuth"],
  },
  {
    source: [
      "| GET | `{base_url}/si/servers` | Query `page`, `pageSize` | Object with `totalCount` and `data` (array of server). |",
      "| `page` default | 1 |",
      "| `pageSize` maximum | 100 |",
    ],
    pointers: ["/paths/~1si~1servers/get", "/components/parameters/Page", "/components/parameters/PageSize"],
  },
  {
    source: [
      "| GET | `{base_url}/dashboard/api-tokens` | Query `page`, `pageSize`, `filter` | Paginated list of API tokens. |",
      "The list envelope for tokens wraps the items as `data`.",
    ],
    pointers: [
      "/paths/~1dashboard~1api-tokens/get",
      "/paths/~1dashboard~1api-tokens/get/parameters/2",
      "/components/schemas/ApiTokenList",
      "/components/schemas/ApiTokenList/properties/data",
    ],
  },
  {
    source: [
      "| POST | `{base_url}/dashboard/api-tokens` | JSON body: `name` (string), `claims` (array of claim) | Object `data` holding the new token, including `id`, `name`, `type`, `claims`, `createdAt`, `lastUsedAt`, `expireAt` and `token`. |",
    ],
    pointers: [
      "/paths/~1dashboard~1api-tokens/post",
      "/paths/~1dashboard~1api-tokens/post/requestBody",
      "/components/schemas/CreateApiTokenRequest",
      "/components/schemas/CreateApiTokenRequest/properties/name",
      "/components/schemas/CreateApiTokenRequest/properties/claims",
      "/components/schemas/CreatedApiTokenResponse",
      "/components/schemas/CreatedApiTokenResponse/properties/data",
      "/components/schemas/CreatedApiToken",
      "/components/schemas/CreatedApiToken/properties/id",
      "/components/schemas/CreatedApiToken/properties/name",
      "/components/schemas/CreatedApiToken/properties/type",
      "/components/schemas/CreatedApiToken/properties/claims",
      "/components/schemas/CreatedApiToken/properties/createdAt",
      "/components/schemas/CreatedApiToken/properties/lastUsedAt",
      "/components/schemas/CreatedApiToken/properties/expireAt",
      "/components/schemas/CreatedApiToken/properties/token",
    ],
  },
  {
    // The error table applies to every request, so each operation documents these statuses.
    source: [
      "| 400 | Invalid input. The body lists, for each invalid field, a `type`, a `path` and a `message`. The container shape of that list is not shown. |",
    ],
    pointers: [
      "/paths/~1si~1servers/get/responses/400",
      "/paths/~1si~1servers/post/responses/400",
      "/paths/~1dashboard~1api-tokens/get/responses/400",
      "/paths/~1dashboard~1api-tokens/post/responses/400",
      "/paths/~1accounts~1invitations/post/responses/400",
      "/paths/~1accounts~1team-guid/get/responses/400",
      "/components/schemas/FieldError",
      "/components/schemas/FieldError/properties/type",
      "/components/schemas/FieldError/properties/path",
      "/components/schemas/FieldError/properties/message",
    ],
  },
  {
    source: ["| 401 | No valid API token. |", "2. A request with no valid token gets `401`."],
    pointers: [
      "/paths/~1si~1servers/get/responses/401",
      "/paths/~1si~1servers/post/responses/401",
      "/paths/~1si~1servers~1{guid}/delete/responses/401",
      "/paths/~1dashboard~1api-tokens/get/responses/401",
      "/paths/~1dashboard~1api-tokens/post/responses/401",
      "/paths/~1dashboard~1api-tokens~1{id}/get/responses/401",
      "/paths/~1dashboard~1api-tokens~1{id}/delete/responses/401",
      "/paths/~1accounts~1invitations/post/responses/401",
      "/paths/~1accounts~1team-guid/get/responses/401",
    ],
  },
  {
    source: [
      "| 403 | The token lacks the required claim, is read-only, or requests claims broader than its own. |",
    ],
    pointers: [
      "/paths/~1si~1servers/get/responses/403",
      "/paths/~1si~1servers/post/responses/403",
      "/paths/~1si~1servers~1{guid}/delete/responses/403",
      "/paths/~1dashboard~1api-tokens/get/responses/403",
      "/paths/~1dashboard~1api-tokens/post/responses/403",
      "/paths/~1dashboard~1api-tokens~1{id}/get/responses/403",
      "/paths/~1dashboard~1api-tokens~1{id}/delete/responses/403",
      "/paths/~1accounts~1invitations/post/responses/403",
      "/paths/~1accounts~1team-guid/get/responses/403",
    ],
  },
  {
    source: [
      "| `guid` | string (GUID) | Server identifier. |",
      "| `product` | string | Kind of server product. The allowed values are not shown. |",
      "| `address` | string (URL) | Server address. |",
      "| `active` | boolean | Whether the server is active. |",
    ],
    pointers: [
      "/components/schemas/Server",
      "/components/schemas/Server/properties/guid",
      "/components/schemas/Server/properties/product",
      "/components/schemas/Server/properties/address",
      "/components/schemas/Server/properties/active",
    ],
  },
  {
    source: ["| `totalCount` | integer, total number of connected servers |", "| `data` | array of server |"],
    pointers: [
      "/components/schemas/ServerList",
      "/components/schemas/ServerList/properties/totalCount",
      "/components/schemas/ServerList/properties/data",
    ],
  },
  {
    source: [
      "| `id` | integer | Token identifier. |",
      "| `name` | string | Human-readable name. The list filter matches against it. |",
      "| `type` | string | Only the value `user` is given. |",
      "| `claims` | array of claim | Permissions carried by the token. |",
      "| `createdAt` | string | ISO 8601 timestamp with UTC offset. |",
      "| `lastUsedAt` | string or null | ISO 8601 timestamp; null when never used. |",
      "| `expireAt` | string or null | ISO 8601 timestamp; null when the token does not expire. |",
    ],
    pointers: [
      "/components/schemas/ApiToken",
      "/components/schemas/ApiToken/properties/id",
      "/components/schemas/ApiToken/properties/name",
      "/components/schemas/ApiToken/properties/type",
      "/components/schemas/ApiToken/properties/claims",
      "/components/schemas/ApiToken/properties/createdAt",
      "/components/schemas/ApiToken/properties/lastUsedAt",
      "/components/schemas/ApiToken/properties/expireAt",
    ],
  },
  {
    // Claims travel in requests (token creation) and responses, told apart by name.
    source: [
      "| `name` | string | `mcp` or `manage-api-tokens`. |",
      "| `readonly` | boolean | Carried on the claim object in requests and responses.",
      "| `attributes` | object | Used by `mcp`. `manage-api-tokens` takes no attributes. |",
    ],
    pointers: [
      "/components/schemas/Claim",
      "/components/schemas/McpClaim",
      "/components/schemas/McpClaim/properties/name",
      "/components/schemas/McpClaim/properties/readonly",
      "/components/schemas/McpClaim/properties/attributes",
      "/components/schemas/ManageApiTokensClaim",
      "/components/schemas/ManageApiTokensClaim/properties/name",
      "/components/schemas/ManageApiTokensClaim/properties/readonly",
      "/components/schemas/ClaimInput",
      "/components/schemas/McpClaimInput",
      "/components/schemas/McpClaimInput/properties/name",
      "/components/schemas/McpClaimInput/properties/readonly",
      "/components/schemas/McpClaimInput/properties/attributes",
      "/components/schemas/ManageApiTokensClaimInput",
      "/components/schemas/ManageApiTokensClaimInput/properties/name",
      "/components/schemas/ManageApiTokensClaimInput/properties/readonly",
    ],
  },
  {
    source: [
      "| `serverGuid` | string (GUID) | Scopes the token to one server. |",
      "| `panelUser` | string | Optional. Scopes the token to one panel user on that server. |",
    ],
    pointers: [
      "/components/schemas/McpClaimAttributes",
      "/components/schemas/McpClaimAttributes/properties/serverGuid",
      "/components/schemas/McpClaimAttributes/properties/panelUser",
    ],
  },
];
