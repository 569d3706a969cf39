// Friendly names for the generated contract types; the contract stays their only definition.
import type { components } from "../generated/rebuild.js";

type Schemas = components["schemas"];

/** What `submit` sends: the public `sourceUrl` of the site to recreate and an optional `prompt`. */
export type RebuildRequest = Schemas["RebuildRequest"];
/** A rebuild as the API returns it, told apart by `status`; only `success` has a `previewUrl`. */
export type Rebuild = Schemas["Rebuild"];
export type RunningRebuild = Schemas["RunningRebuild"];
export type SucceededRebuild = Schemas["SucceededRebuild"];
export type FailedRebuild = Schemas["FailedRebuild"];
/**
 * What `submit` resolves to: the rebuild, and `created`, true when this call started it (202),
 * false when the `sourceUrl` had been submitted before and the existing rebuild came back (200).
 */
export type SubmittedRebuild = Rebuild & { readonly created: boolean };
