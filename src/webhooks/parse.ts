import type { z } from "zod";
import { WebhookPayloadError, type WebhookPayloadIssue } from "./errors.js";
import {
  REBUILD_COMPLETED_EVENT,
  type RebuildCompletedCallback,
  rebuildCompletedCallbackSchema,
} from "./schema.js";
import { encodeWebhookApiKey, verifyApiKey, type WebhookHeaders } from "./verify.js";

/** The request body exactly as received: text, or bytes (Uint8Array, Buffer, ArrayBuffer, any view). */
export type RawWebhookBody = string | ArrayBuffer | ArrayBufferView;

export interface ParseRebuildCallbackOptions {
  readonly body: RawWebhookBody;
  readonly headers: WebhookHeaders;
  readonly webhookApiKey: string;
}

/**
 * Verifies `X-API-Key` (constant time) and then validates the body. Returns the event with the
 * wire (snake_case) field names; unknown extra fields are tolerated and left out of the result.
 * Throws `WebhookVerificationError` or `WebhookPayloadError`, and `TypeError` for an empty key.
 */
export function parseRebuildCallback(options: ParseRebuildCallbackOptions): RebuildCompletedCallback {
  verifyApiKey(options.headers, encodeWebhookApiKey(options.webhookApiKey));
  return parseCallbackBody(options.body);
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Validation only; callers must have verified the sender first. */
export function parseCallbackBody(body: unknown): RebuildCompletedCallback {
  const json = parseJson(decodeBody(body));
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw payloadError("", "body must be a JSON object");
  }
  const record = json as Record<string, unknown>;
  const eventType = record.event_type;
  // Checked before the schema: another event's fields would only produce misleading issues.
  if (typeof eventType === "string" && eventType !== REBUILD_COMPLETED_EVENT) {
    throw payloadError(
      "event_type",
      `unknown event type ${preview(eventType)}; only "${REBUILD_COMPLETED_EVENT}" is supported`,
    );
  }
  const result = rebuildCompletedCallbackSchema.safeParse(record, { reportInput: true });
  if (result.success) return result.data;
  throw new WebhookPayloadError(result.error.issues.map((issue) => describeIssue(issue, record)));
}

function decodeBody(body: unknown): string {
  if (typeof body === "string") return body;
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
    try {
      return decoder.decode(body);
    } catch {
      throw payloadError("", "body is not valid UTF-8");
    }
  }
  if (body === undefined || body === null) {
    throw payloadError("", "body is missing; pass the raw request body (a string or bytes)");
  }
  // A parsed object hides whether the bytes on the wire were valid UTF-8 and JSON, which this
  // parser promises to check, so it insists on the original body.
  throw payloadError(
    "",
    "body is already parsed; pass the raw request body (a string or bytes) exactly as received, " +
      'e.g. with express.raw({ type: "application/json" }) instead of express.json()',
  );
}

function parseJson(text: string): unknown {
  if (text.trim() === "") throw payloadError("", "body is empty");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new WebhookPayloadError([{ path: "", message: "body is not valid JSON" }], { cause: error });
  }
}

function describeIssue(issue: z.core.$ZodIssue, record: Record<string, unknown>): WebhookPayloadIssue {
  const path = issue.path.join(".");
  const input: unknown = issue.input;
  switch (issue.code) {
    case "invalid_union":
      // Only the discriminator can fail at the union level: each branch is a plain object.
      return record.status === undefined
        ? { path, message: "required" }
        : { path, message: `expected "success" or "failed", got ${preview(record.status)}` };
    case "invalid_type":
      if (issue.expected === "never") return { path, message: `not allowed when status is ${record.status}` };
      if (input === undefined) {
        return { path, message: path === "preview_url" ? "required when status is success" : "required" };
      }
      if (issue.expected === "int") return { path, message: "must be an integer" };
      return { path, message: `expected ${issue.expected}, got ${typeName(input)}` };
    case "invalid_value":
      if (input === undefined) return { path, message: "required" };
      return { path, message: `expected ${issue.values.map(preview).join(" or ")}, got ${preview(input)}` };
    case "too_small":
      return {
        path,
        message: issue.origin === "string" ? "must not be empty" : "must be a positive integer",
      };
    case "too_big":
      return { path, message: "must be a safe integer" };
    default:
      return { path, message: issue.message };
  }
}

function payloadError(path: string, message: string): WebhookPayloadError {
  return new WebhookPayloadError([{ path, message }]);
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}

// Values quoted in messages come from the body, so they are shortened to keep messages readable.
function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
