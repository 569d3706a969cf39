// The `./webhooks` entry point. It is separate from the package root so that an application that
// only calls the APIs never loads zod.
export { WebhookPayloadError, type WebhookPayloadIssue, WebhookVerificationError } from "./errors.js";
export {
  createRebuildWebhookHandler,
  type RebuildWebhookHandlerOptions,
  type WebhookRequestHandler,
} from "./handler.js";
export { type NodeRequestListener, toNodeHandler } from "./node.js";
export { type ParseRebuildCallbackOptions, parseRebuildCallback, type RawWebhookBody } from "./parse.js";
export type { RebuildCompletedCallback, RebuildFailedCallback, RebuildSucceededCallback } from "./schema.js";
export { createMemoryDeliveryStore, type DeliveryStore } from "./store.js";
export type { WebhookHeaders } from "./verify.js";
