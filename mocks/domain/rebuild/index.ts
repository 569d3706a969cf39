/**
 * The Partner site rebuild API mock's domain: partners and their console settings, authentication,
 * the rate window, submissions, completion and callback delivery, magic links and clones, and the
 * built-in webhook sink. Pure: time comes from the injected clock, randomness from the injected
 * source, and callbacks leave through the injected transport.
 */
export type { CompletionInput, MagicLinkInput } from "./control-input.js";
export { DELIVERY_LOG_LIMIT, RETRY_DELAYS_MS } from "./deliveries.js";
export { DEFAULT_ERROR_CODE, DEFAULT_ERROR_MESSAGE } from "./outcome.js";
export { builtInSinkUrl, DEFAULT_RATE_LIMIT_PER_HOUR, DEFAULT_REGION } from "./partner-settings.js";
export { projectIdFromPromptToken } from "./prompt-token.js";
export { hostRejection, isPublicHost } from "./public-host.js";
export type { RateLimitState } from "./rate-window.js";
export {
  type AuthenticatedPartner,
  createRebuildDomain,
  DEFAULT_REBUILD_DELAY_MS,
  type MagicLinkResult,
  type RebuildDomain,
  type RebuildDomainOptions,
  type SubmitResult,
} from "./rebuild-domain.js";
export { type BrandSeed, defaultRebuildSeed, type PartnerSeed, type RebuildSeed } from "./seed.js";
export {
  type CheckedRebuildSnapshot,
  type RebuildSnapshot,
  type RebuildSnapshotEntry,
  readRebuildSnapshot,
} from "./snapshot.js";
export { MAX_PROMPT_LENGTH, MAX_SOURCE_URL_LENGTH } from "./submission.js";
export type * from "./types.js";
export { SINK_LIMITS, type StoredSinkEntry } from "./webhook-sink.js";
