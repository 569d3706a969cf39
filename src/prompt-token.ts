import { SdkError } from "./core/errors.js";
import { hasUserInfo, isHttpUrl } from "./core/iri.js";

/**
 * A string given to `parsePromptToken` is not a valid promptToken. The message says what is wrong
 * but never repeats the token: it assigns a rebuild to whoever opens the link.
 */
export class PromptTokenError extends SdkError {
  override readonly name: string = "PromptTokenError";
}

const PREFIX = "rebuildId=";
const PARAM = "promptToken";
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
// In a `u` regex a surrogate pair is one code point, so this only matches unpaired halves, which
// TextEncoder would silently turn into U+FFFD (and the id would not survive a round trip).
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Base64 (standard alphabet, padded) of the UTF-8 string `rebuildId=<projectId>`. */
export function buildPromptToken(projectId: string): string {
  if (typeof projectId !== "string" || projectId.length === 0) {
    throw new TypeError("projectId must be a non-empty string");
  }
  if (LONE_SURROGATE.test(projectId)) {
    throw new TypeError("projectId must be well-formed Unicode (it contains an unpaired surrogate)");
  }
  return bytesToBase64(encoder.encode(PREFIX + projectId));
}

/**
 * The project id carried by a promptToken, given raw or percent-encoded as it appears in a URL.
 * Throws `TypeError` when `token` is not a string and `PromptTokenError` when it is not a token.
 */
export function parsePromptToken(token: string): string {
  if (typeof token !== "string") throw new TypeError("promptToken must be a string");
  let base64 = token;
  // Base64 never contains "%", so its presence can only mean percent-encoding.
  if (base64.includes("%")) {
    try {
      base64 = decodeURIComponent(base64);
    } catch {
      throw new PromptTokenError("promptToken is not valid percent-encoding");
    }
  }
  if (base64.length === 0) throw new PromptTokenError("promptToken is empty");
  if (!BASE64.test(base64)) {
    throw new PromptTokenError(
      "promptToken is not Base64 (standard alphabet A-Z a-z 0-9 + / with = padding)",
    );
  }
  if (base64.length % 4 !== 0) {
    throw new PromptTokenError("promptToken has wrong Base64 padding (its length must be a multiple of 4)");
  }
  const binary = atob(base64);
  // atob ignores non-zero bits in the last character; re-encoding rejects such non-canonical forms.
  if (btoa(binary) !== base64) throw new PromptTokenError("promptToken is not canonical Base64");
  let text: string;
  try {
    text = decoder.decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
  } catch {
    throw new PromptTokenError("promptToken does not decode to UTF-8 text");
  }
  if (!text.startsWith(PREFIX)) {
    throw new PromptTokenError(`promptToken does not decode to a string starting with "${PREFIX}"`);
  }
  const projectId = text.slice(PREFIX.length);
  if (projectId.length === 0) throw new PromptTokenError("promptToken carries an empty project id");
  return projectId;
}

/**
 * `baseUrl` (an absolute http or https URL without user info) with a `promptToken` query parameter for `projectId`, plus `params`. The base URL's
 * query string is kept byte for byte except for parameters that `params` (or the token) replaces;
 * its fragment is kept. `params` may not contain `promptToken`.
 */
export function buildMagicLink(
  baseUrl: string | URL,
  projectId: string,
  params: Readonly<Record<string, string>> = {},
): string {
  // A link a customer opens: only http(s), never `javascript:` or `data:` (the one URL check), and,
  // as for the clients' baseUrl, no user info: it would hide the real host or embed credentials.
  const text = String(baseUrl);
  if (!isHttpUrl(text) || hasUserInfo(text)) {
    throw new TypeError("baseUrl must be an absolute http or https URL without user info");
  }
  const url = new URL(baseUrl);
  if (typeof params !== "object" || params === null)
    throw new TypeError("params must be an object of strings");
  const entries = Object.entries(params);
  for (const [name, value] of entries) {
    if (name === PARAM) {
      throw new TypeError(`params cannot set ${PARAM}: it is built from projectId`);
    }
    if (typeof value !== "string") throw new TypeError(`params.${name} must be a string`);
  }
  const token = buildPromptToken(projectId);
  const replaced = new Set([PARAM, ...entries.map(([name]) => name)]);
  // Splicing the raw query string, rather than going through url.searchParams, keeps the base URL's
  // other parameters exactly as written (URLSearchParams would re-encode them, `?flag` → `?flag=`).
  const kept = url.search
    .slice(1)
    .split("&")
    .filter((pair) => pair !== "" && !replaced.has(queryName(pair)));
  const added = [...entries, [PARAM, token] as const].map(
    ([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`,
  );
  url.search = [...kept, ...added].join("&");
  return url.href;
}

function queryName(pair: string): string {
  return new URLSearchParams(pair).keys().next().value ?? "";
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  // Chunked so a long id never exceeds the engine's argument-count limit.
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}
