/**
 * The webhook receiver of the rebuild completion callback. It is an entry point of its own so that an
 * application that only calls the APIs never loads the receiver (its exact checks of the payload, a SHA-256).
 * @module rebuild-dashboard-kit/webhooks
 */

export type { webhooks as RebuildWebhooks } from "../generated/rebuild.js";
export { WebhookPayloadError, type WebhookPayloadIssue, WebhookVerificationError } from "./errors.js";
export {
  createRebuildWebhookHandler,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  type RebuildWebhookHandlerOptions,
  type WebhookRequestHandler,
} from "./handler.js";
export { type NodeRequestListener, toNodeHandler } from "./node.js";
export { type ParseRebuildCallbackOptions, parseRebuildCallback, type RawWebhookBody } from "./parse.js";
export type { RebuildCompletedCallback, RebuildFailedCallback, RebuildSucceededCallback } from "./schema.js";
export { createMemoryDeliveryStore, type DeliveryStore, type MemoryDeliveryStoreOptions } from "./store.js";
export type { WebhookHeaders } from "./verify.js";
