// The shapes the rebuild domain hands out, from the generated contract types (openapi/rebuild.yaml
// for the public API and the callback, openapi/mock-control.yaml for the mock's own records).
import type { components as ControlComponents } from "../../../src/generated/mock-control.js";
import type { components as RebuildComponents } from "../../../src/generated/rebuild.js";

type Rebuild = RebuildComponents["schemas"];

export type RunningRebuildView = Rebuild["RunningRebuild"];
/** A rebuild as the public API answers it: `previewUrl` only when `status` is `success`. */
export type RebuildView = Rebuild["Rebuild"];
/** The completion callback's JSON body (snake_case, as the source documents it). */
export type RebuildCallbackPayload = Rebuild["RebuildCompletedCallback"];

/** Everything the mock knows about a rebuild (control API and state). */
export type RebuildRecord = ControlComponents["schemas"]["RebuildRecord"];
export type ProjectOwner = ControlComponents["schemas"]["ProjectOwner"];
/**
 * A project: the one a rebuild generates (held by the system account, `copiedFrom` null) or an
 * independent copy made by a magic link (owner `customer`) or "Clone to user" (owner `user`).
 */
export type ProjectRecord = ControlComponents["schemas"]["ProjectRecord"];
/** One callback attempt, recorded whatever its outcome. */
export type DeliveryRecord = ControlComponents["schemas"]["DeliveryRecord"];
/** One request received by the built-in webhook sink. */
export type SinkEntry = ControlComponents["schemas"]["SinkEntry"];
/** A partner brand; a customer gets the brand whose `serverIps` holds the panel server they log in from. */
export type Brand = ControlComponents["schemas"]["Brand"];
/** A partner's console settings, keys included (this is mock state for a development tool). */
export type PartnerSettings = ControlComponents["schemas"]["PartnerSettings"];
/** The rebuild side of `GET /__mock/state`: everything, keys included (a development tool). */
export type RebuildState = ControlComponents["schemas"]["RebuildState"];

/** One callback POST for the transport port to perform. */
export interface CallbackDelivery {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Performs one callback POST. The world's default delivers to its own sink in-process and to any
 * other URL with fetch (the 10 s timeout included, reported as `{ error: "timeout" }`); any non-2xx
 * status, error or rejection counts as a failed attempt.
 */
export type CallbackTransport = (
  delivery: CallbackDelivery,
) => Promise<{ status: number } | { error: string }>;
