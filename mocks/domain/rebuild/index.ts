/**
 * The Partner site rebuild API mock's domain: partners and their console settings, authentication,
 * the rate window, submissions, completion and callback delivery, magic links and clones, and the
 * built-in webhook sink. Pure: time comes from the injected clock, randomness from the injected
 * source, and callbacks leave through the injected transport.
 */
export { DELIVERY_LOG_LIMIT } from "./deliveries.js";
export { DEFAULT_ERROR_MESSAGE } from "./outcome.js";
export { projectIdFromPromptToken } from "./prompt-token.js";
export { hostRejection, isPublicHost } from "./public-host.js";
export type { RateLimitState } from "./rate-window.js";
export {
  type AuthenticatedPartner,
  createRebuildDomain,
  type RebuildDomain,
  type RebuildDomainOptions,
} from "./rebuild-domain.js";
export { defaultRebuildSeed, type RebuildSeed } from "./seed.js";
export { type CheckedRebuildSnapshot, type RebuildSnapshot, readRebuildSnapshot } from "./snapshot.js";
export type * from "./types.js";
export { SINK_LIMITS } from "./webhook-sink.js";
