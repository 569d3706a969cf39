// Friendly names for the generated contract types; the contract stays their only definition.
import type { components } from "../generated/rebuild.js";

/** What `submit` sends: the public `sourceUrl` of the site to recreate and an optional `prompt`. */
export type RebuildRequest = components["schemas"]["RebuildRequest"];
/** A rebuild as the API returns it, told apart by `status`; only `success` has a `previewUrl`. */
export type Rebuild = components["schemas"]["Rebuild"];
/** A rebuild still in progress (`status` `running`); it has no `previewUrl`. */
export type RunningRebuild = components["schemas"]["RunningRebuild"];
/** A rebuild that completed (`status` `success`), with the `previewUrl` of the generated project. */
export type SucceededRebuild = components["schemas"]["SucceededRebuild"];
/** A rebuild that did not complete (`status` `failed`); it has no `previewUrl`. */
export type FailedRebuild = components["schemas"]["FailedRebuild"];
/**
 * What `submit` resolves to: the rebuild, and `created`, true when this call started it (202),
 * false when the `sourceUrl` had been submitted before and the existing rebuild came back (200).
 */
export type SubmittedRebuild = Rebuild & { readonly created: boolean };
