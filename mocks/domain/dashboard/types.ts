import type { components, operations } from "../../../src/generated/dashboard.js";

type Schemas = components["schemas"];

export type McpAttributes = Schemas["McpClaimAttributes"];
/** A claim as stored and as written in every response (the wire shape). */
export type Claim = Schemas["Claim"];
/** A claim as a request writes it: `readonly` and `attributes` optional. */
export type ClaimInput = Schemas["ClaimInput"];

/** Who is calling: the result of `authenticate`, passed to every operation. */
export interface Principal {
  readonly tokenId: number;
  readonly userId: number;
  readonly teamId: string;
  /** Empty for an unrestricted token. */
  readonly claims: readonly Claim[];
}

/** The operationIds of the Dashboard management API. */
export type DashboardOperation = keyof operations;

export type ServerView = Schemas["Server"];
export type ApiTokenView = Schemas["ApiToken"];
/** Only the creation response carries the secret. */
export type CreatedApiTokenView = Schemas["CreatedApiToken"];

/** A paginated list: `totalCount` counts every match across all pages. */
export interface ListPage<T> {
  totalCount: number;
  data: T[];
}

export type InvitationResult = Schemas["Invitation"];
export type TeamGuidResult = Schemas["TeamGuid"];
