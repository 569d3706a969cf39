import { DomainError, validationFailed } from "../domain/errors.js";
import type { MockRequest } from "./types.js";

/** Bodies above this many bytes get 413 (contract-decisions: "bodies over 1 MiB"). */
export const MAX_BODY_BYTES = 1024 * 1024;

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Reads a JSON request body in the decided order: size (413), media type (415), UTF-8 and JSON
 * syntax (400 at the root). An empty body, whatever its type, is `undefined`: the operation's
 * validation then reports what is missing.
 */
export function readJsonBody(req: MockRequest): unknown {
  const bytes = req.body;
  if (!bytes || bytes.length === 0) return undefined;
  if (bytes.length > MAX_BODY_BYTES) {
    throw new DomainError("PAYLOAD_TOO_LARGE", `Request body exceeds ${MAX_BODY_BYTES} bytes`);
  }
  const contentType = req.headers.get("content-type");
  if (!isJsonMediaType(contentType)) {
    throw new DomainError(
      "UNSUPPORTED_MEDIA_TYPE",
      `Content-Type must be application/json${contentType ? `, got ${contentType.slice(0, 100)}` : ""}`,
    );
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw validationFailed([{ type: "invalid_format", path: "", message: "Body is not valid UTF-8" }]);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw validationFailed([{ type: "invalid_format", path: "", message: "Body is not valid JSON" }]);
  }
}

/** `application/json` or any `*\/*+json`, parameters such as `charset` allowed. */
export function isJsonMediaType(value: string | null): boolean {
  if (!value) return false;
  const essence = (value.split(";")[0] ?? "").trim().toLowerCase();
  const slash = essence.indexOf("/");
  if (slash <= 0 || slash === essence.length - 1) return false;
  const subtype = essence.slice(slash + 1);
  return essence === "application/json" || (subtype.endsWith("+json") && subtype.length > 5);
}
