/**
 * The Partner site rebuild API mock's domain: partners and their console settings, authentication,
 * the rate window, submissions, completion and callback delivery, magic links and clones, and the
 * built-in webhook sink. Pure: time comes from the injected clock, randomness from the injected
 * source, and callbacks leave through the injected transport.
 */
export type { RateLimitState } from "./rate-window.js";
export { createRebuildDomain, type RebuildDomain } from "./rebuild-domain.js";
export { defaultRebuildSeed, type RebuildSeed } from "./seed.js";
export type { CheckedRebuildSnapshot } from "./snapshot.js";
export type { AuthenticatedPartner } from "./submissions.js";
export type * from "./types.js";
