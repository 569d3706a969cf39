// Friendly names for the generated contract types; the contract stays their only definition.
import type { components, operations } from "../generated/dashboard.js";

/** A server connected to the caller's team's server inventory. */
export type Server = components["schemas"]["Server"];
/** One page of servers and the total across all pages. */
export type ServerList = components["schemas"]["ServerList"];
/** One server to connect: its `address` (an http(s) URL) and `product`. */
export type ServerToConnect = components["schemas"]["ServerToConnect"];

/** An API token of the calling user, never with its secret. */
export type ApiToken = components["schemas"]["ApiToken"];
/** One page of API tokens and the number matching the filter across all pages. */
export type ApiTokenList = components["schemas"]["ApiTokenList"];
/** A token just created: the only object that carries its secret `token`. */
export type CreatedApiToken = components["schemas"]["CreatedApiToken"];
/** What `apiTokens.create` sends: a `name` and the `claims` (`[]` for an unrestricted token). */
export type CreateApiTokenRequest = Omit<components["schemas"]["CreateApiTokenRequest"], "claims"> & {
  claims: ClaimInput[];
};
/** A permission carried by a token, told apart by `name`. */
export type Claim = components["schemas"]["Claim"];
/** An `mcp` claim: scopes the token to the MCP surface, optionally to one server (and panel user) by its `attributes`. */
export type McpClaim = components["schemas"]["McpClaim"];
/** A `manage-api-tokens` claim: grants management of API tokens; it takes no attributes. */
export type ManageApiTokensClaim = components["schemas"]["ManageApiTokensClaim"];
/** An `mcp` claim's attributes: `serverGuid` (absent: all servers) and `panelUser` (only with `serverGuid`). */
export type McpClaimAttributes = components["schemas"]["McpClaimAttributes"];
/** A claim requested for a new token; `readonly` and `attributes` may be left out. */
export type ClaimInput = McpClaimInput | ManageApiTokensClaimInput;
/** An `mcp` claim requested for a new token; `readonly` and `attributes` may be left out. */
export type McpClaimInput = components["schemas"]["McpClaimInput"];
/**
 * The contract's `manage-api-tokens` claim input, its `attributes` (none allowed: the contract's
 * `Record<string, never>`) stated as "none of an `mcp` claim's attributes": an object literal with
 * any attribute is refused all the same, and beside it in `ClaimInput` a misspelt `mcp` attribute
 * gets an error that names it (with the index signature TypeScript reported only "Type 'string' is
 * not assignable to type 'never'").
 */
export type ManageApiTokensClaimInput = Omit<
  components["schemas"]["ManageApiTokensClaimInput"],
  "attributes"
> & {
  attributes?: { [K in keyof McpClaimAttributes]?: never };
};
/** An API token's `id`. */
export type ApiTokenId = operations["getApiToken"]["parameters"]["path"]["id"];

/** One invitation sent. */
export type Invitation = components["schemas"]["Invitation"];

/** `page` (from 1) and `pageSize` (1 to 100, default 10). */
export type ListServersQuery = NonNullable<operations["listServers"]["parameters"]["query"]>;
/** `pageSize` of each request `listAll` makes (default 100, the fewest requests). */
export type ListAllServersQuery = Omit<ListServersQuery, "page">;
/** `page`, `pageSize` and `filter` (a case-insensitive substring of the name). */
export type ListApiTokensQuery = NonNullable<operations["listApiTokens"]["parameters"]["query"]>;
/** `filter`, and the `pageSize` of each request `listAll` makes (default 100). */
export type ListAllApiTokensQuery = Omit<ListApiTokensQuery, "page">;
