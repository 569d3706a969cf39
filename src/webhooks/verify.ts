import { checkCredential } from "../core/options.js";
import { timingSafeEqual } from "../core/timing-safe-equal.js";
import { WEBHOOK_API_KEY_HEADER as HEADER } from "../generated/headers.js";
import { WebhookVerificationError } from "./errors.js";

/** A `Headers` object, or a plain object such as Node's `req.headers` (names in any case). */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

const encoder = new TextEncoder();

/**
 * Checks the configured key once, at setup, so a misconfiguration fails loudly rather than per
 * request: as the clients check their `apiKey`, since a key no header can carry exactly (surrounding
 * whitespace, such as a newline read from a file, a control character or one beyond Latin-1) would
 * answer 401 to every genuine callback. `caller` starts the TypeError's message.
 */
export function encodeWebhookApiKey(caller: string, webhookApiKey: unknown): Uint8Array {
  return encoder.encode(checkCredential(caller, "webhookApiKey", webhookApiKey));
}

export function verifyApiKey(headers: WebhookHeaders, expected: Uint8Array): void {
  const received = readApiKey(headers);
  if (received === undefined) throw new WebhookVerificationError("missing X-API-Key header");
  if (!timingSafeEqual(expected, encoder.encode(received))) {
    throw new WebhookVerificationError("X-API-Key does not match the configured webhook API key");
  }
}

function readApiKey(headers: WebhookHeaders): string | undefined {
  if (isHeaders(headers)) return headers.get(HEADER) || undefined;
  const values = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== HEADER) continue;
    const items: readonly unknown[] = typeof value === "string" ? [value] : Array.isArray(value) ? value : [];
    for (const item of items) {
      if (typeof item === "string" && item !== "") values.add(item);
    }
  }
  if (values.size > 1) {
    throw new WebhookVerificationError("X-API-Key header has several different values");
  }
  return values.values().next().value;
}

// Duck-typed: a Headers from another realm or polyfill fails instanceof.
function isHeaders(headers: WebhookHeaders): headers is Headers {
  return typeof (headers as { get?: unknown }).get === "function";
}
