import { checkShape, type Shape } from "../core/shape.js";
import { WebhookPayloadError, type WebhookPayloadIssue } from "./errors.js";
import { exactCheck } from "./exact-check.js";
import { CALLBACK_SHAPE, type RebuildCompletedCallback } from "./schema.js";
import { encodeWebhookApiKey, verifyApiKey, type WebhookHeaders } from "./verify.js";

/** The request body exactly as received: text, or bytes (Uint8Array, Buffer, ArrayBuffer, any view). */
export type RawWebhookBody = string | ArrayBuffer | ArrayBufferView;

/** What `parseRebuildCallback` checks: one received callback and the key it must carry. */
export interface ParseRebuildCallbackOptions {
  /** The request body exactly as received (not parsed JSON). */
  readonly body: RawWebhookBody;
  /** The request's headers (`X-API-Key` is read from them). */
  readonly headers: WebhookHeaders;
  /** The partner's webhook API key the callback must carry. */
  readonly webhookApiKey: string;
}

/**
 * Verifies `X-API-Key` (constant time) and then validates the body against the contract's
 * `webhooks` schema: it accepts exactly what the schema accepts. Returns the event with the wire
 * (snake_case) field names; unknown extra fields are tolerated and left out of the result.
 * Throws `WebhookVerificationError` or `WebhookPayloadError`, and `TypeError` for a configured key
 * no header can carry exactly (empty, surrounding whitespace, control characters, beyond Latin-1).
 */
export function parseRebuildCallback(options: ParseRebuildCallbackOptions): RebuildCompletedCallback {
  verifyApiKey(options.headers, encodeWebhookApiKey("parseRebuildCallback", options.webhookApiKey));
  return parseCallbackBody(options.body);
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** The event types the schema knows: the values its discriminated alternatives give `event_type`. */
const EVENT_TYPES = new Set(
  Object.values(CALLBACK_SHAPE ? (CALLBACK_SHAPE.m ?? { _: CALLBACK_SHAPE }) : {}).flatMap((alt) => {
    const prop = alt ? alt.p?.event_type : undefined;
    return prop ? ("c" in prop ? [prop.c] : (prop.e ?? [])) : [];
  }),
);

/** Validation only; callers must have verified the sender first. */
export function parseCallbackBody(body: unknown): RebuildCompletedCallback {
  const json = parseJson(decodeBody(body));
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw payloadError("", "body must be a JSON object");
  }
  const record = json as Record<string, unknown>;
  const eventType = record.event_type;
  // Checked before the schema: another event's fields would only produce misleading issues.
  if (typeof eventType === "string" && !EVENT_TYPES.has(eventType)) {
    throw payloadError(
      "event_type",
      `unknown event type ${preview(eventType)}; only ${[...EVENT_TYPES].map((type) => `"${type}"`).join(", ")} ${EVENT_TYPES.size > 1 ? "are" : "is"} supported`,
    );
  }
  const issues = checkShape(CALLBACK_SHAPE, record, exactCheck);
  if (issues.length) {
    throw new WebhookPayloadError(
      issues.map(
        (issue): WebhookPayloadIssue => ({
          // `$.a[0].b` → `a.0.b`, the dotted paths the receiver's errors have always used.
          path: issue.path.replace(/^\$\.?/, "").replace(/\[(\d+)\]/g, ".$1"),
          message: issue.message,
        }),
      ),
    );
  }
  return strip(CALLBACK_SHAPE, record) as RebuildCompletedCallback;
}

/**
 * `value` (already checked) with only the properties its shape names, recursively: the returned
 * event has exactly the contract's fields, so its type needs no index signature (decisions/009).
 */
function strip(shape: Shape, value: unknown): unknown {
  if (!shape || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value))
    return shape.i === undefined ? value : value.map((item) => strip(shape.i as Shape, item));
  const record = value as Record<string, unknown>;
  const chosen = (shape.m ? shape.m[record[shape.d ?? ""] as string] : shape) || undefined;
  if (!chosen?.p) return value;
  const out: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(chosen.p) as [string, Shape][]) {
    if (Object.hasOwn(record, name)) out[name] = strip(sub, record[name]);
  }
  return out;
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

function payloadError(path: string, message: string): WebhookPayloadError {
  return new WebhookPayloadError([{ path, message }]);
}

// Values quoted in messages come from the body, so they are shortened to keep messages readable.
function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
