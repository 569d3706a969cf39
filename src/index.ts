/**
 * The package root: both API clients, their errors and types, and the promptToken helpers. The
 * webhook receiver lives in the `./webhooks` entry point (only its error classes are re-exported
 * here, so one `instanceof` check works wherever an error comes from).
 * @module rebuild-dashboard-kit
 */

export { APIPromise, type WithResponse } from "./core/api-promise.js";
export {
  ApiError,
  type ApiErrorInit,
  AuthenticationError,
  ConnectionError,
  type ErrorCode,
  type FieldError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  type ResponseErrorInit,
  ResponseTooLargeError,
  ResponseValidationError,
  SdkError,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
} from "./core/errors.js";
export type { CommonClientOptions, Logger, RequestOptions } from "./core/options.js";
export type { RateLimitBudget } from "./core/rate-limit.js";
export type { AccountsResource } from "./dashboard/accounts.js";
export type { ApiTokensResource } from "./dashboard/api-tokens.js";
export { DashboardClient, type DashboardClientOptions } from "./dashboard/dashboard-client.js";
export type { ServersResource } from "./dashboard/servers.js";
export type {
  ApiToken,
  ApiTokenId,
  ApiTokenList,
  Claim,
  ClaimInput,
  CreateApiTokenRequest,
  CreatedApiToken,
  Invitation,
  ListAllApiTokensQuery,
  ListAllServersQuery,
  ListApiTokensQuery,
  ListServersQuery,
  ManageApiTokensClaim,
  ManageApiTokensClaimInput,
  McpClaim,
  McpClaimAttributes,
  McpClaimInput,
  Server,
  ServerList,
  ServerToConnect,
} from "./dashboard/types.js";
// The contract's generated types (openapi-typescript, src/generated/), under each document's name:
// what `DashboardClient.http` and `RebuildClient.http` are typed by, for middleware and clients of your own.
export type {
  components as DashboardComponents,
  operations as DashboardOperations,
  paths as DashboardPaths,
} from "./generated/dashboard.js";
export type {
  components as RebuildComponents,
  operations as RebuildOperations,
  paths as RebuildPaths,
} from "./generated/rebuild.js";
export { buildMagicLink, buildPromptToken, PromptTokenError, parsePromptToken } from "./prompt-token.js";
export { RebuildClient, type RebuildClientOptions } from "./rebuild/rebuild-client.js";
export type {
  FailedRebuild,
  Rebuild,
  RebuildRequest,
  RunningRebuild,
  SubmittedRebuild,
  SucceededRebuild,
} from "./rebuild/types.js";
export {
  WebhookPayloadError,
  type WebhookPayloadIssue,
  WebhookVerificationError,
} from "./webhooks/errors.js";
