import { DomainError, validationFailed } from "../domain/errors.js";
import { jsonDepth, MAX_JSON_DEPTH } from "../domain/validation/json-depth.js";
import type { MockRequest } from "./types.js";

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
const lenientUtf8 = new TextDecoder("utf-8");

/**
 * 413 for a body over `maxBytes` (the operation's `x-body-limit`); adapters stop reading one byte past
 * it, so the length tells.
 */
export function checkBodySize(req: MockRequest, maxBytes: number): void {
  if (req.body && req.body.length > maxBytes) {
    throw new DomainError("PAYLOAD_TOO_LARGE", `Request body exceeds ${maxBytes} bytes`);
  }
}

/**
 * Reads a JSON request body in the decided order: size (413), media type (415), UTF-8, nesting
 * depth (`MAX_JSON_DEPTH`) and JSON syntax (400 at the root). An empty body, whatever its type, is
 * `undefined`: the operation's validation then reports what is missing.
 */
export function readJsonBody(req: MockRequest, maxBytes: number): unknown {
  const bytes = req.body;
  if (!bytes || bytes.length === 0) return undefined;
  checkBodySize(req, maxBytes);
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
    throw validationFailed([{ type: "invalid_format", path: "", message: "must be valid UTF-8" }]);
  }
  checkDepth(text);
  try {
    return JSON.parse(text);
  } catch {
    throw validationFailed([{ type: "invalid_format", path: "", message: "must be valid JSON" }]);
  }
}

/**
 * A body kept as text whatever its type (the webhook sink, a control route: the dispatcher checked
 * its size before the route ran), then, when it is JSON, its nesting depth (400). Invalid UTF-8 is
 * kept with replacement characters. Null when empty.
 */
export function readBodyText(req: MockRequest): string | null {
  if (!req.body || req.body.length === 0) return null;
  const text = lenientUtf8.decode(req.body);
  if (jsonDepth(text) > MAX_JSON_DEPTH && isJson(text)) checkDepth(text);
  return text;
}

function checkDepth(text: string): void {
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    throw validationFailed([
      {
        type: "too_big",
        path: "",
        message: `must not nest arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
      },
    ]);
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
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
