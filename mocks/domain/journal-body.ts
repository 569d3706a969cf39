// What the request journal keeps of a request's body (decisions/044): the JSON a client sent, with
// secrets redacted and its size bounded, and the deep partial match `GET /__mock/requests?body=`
// filters by. Pure: the dispatcher hands over the text, nothing here reads a header.
import { JOURNAL_BODY_MAX_LENGTH } from "../../src/generated/limits.js";
import { jsonDepth, MAX_JSON_DEPTH } from "./validation/json-depth.js";

/** A body as an entry keeps it: parsed JSON (or the cut text of a longer one), and whether it was cut. */
export interface JournalBody {
  body: unknown;
  bodyCut: boolean;
}

const REDACTED = "[redacted]";
// A key that names a secret, however it is cased or joined (`apiKey`, `api_key`, `X-API-Key`).
const SECRET_KEY = /secret|password|passwd|token|key$|^key|authorization|credential/i;
// The password of a URL's user information: `scheme://user:password@host`.
const URL_PASSWORD = /(\/\/[^/@:\s]*:)[^/@\s]*@/g;

const NONE: JournalBody = Object.freeze({ body: null, bodyCut: false });

/** The journal's copy of a request body's text (`null`: none): JSON or nothing, secrets redacted, bounded. */
export function journalBody(text: string | null): JournalBody {
  // Deeper than any body the APIs take: JSON.stringify would recurse that deep (see json-depth.ts).
  if (text === null || text === "" || jsonDepth(text) > MAX_JSON_DEPTH) return NONE;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return NONE;
  }
  const kept = redact(parsed);
  const json = JSON.stringify(kept);
  if (json.length <= JOURNAL_BODY_MAX_LENGTH) return { body: kept, bodyCut: false };
  return { body: `${json.slice(0, JOURNAL_BODY_MAX_LENGTH - 1)}…`, bodyCut: true };
}

function redact(value: unknown): unknown {
  if (typeof value === "string") return value.replace(URL_PASSWORD, `$1${REDACTED}@`);
  if (Array.isArray(value)) return value.map(redact);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key.replace(/[-_\s]/g, "")) ? REDACTED : redact(inner);
  }
  return out;
}

/**
 * Whether `value` contains `pattern` (deep partial match): an object pattern matches an object that
 * has each of its keys with a matching value, an array pattern an array in which each of its
 * elements matches some element, anything else an equal value.
 */
export function containsJson(value: unknown, pattern: unknown): boolean {
  if (Array.isArray(pattern)) {
    return (
      Array.isArray(value) && pattern.every((wanted) => value.some((item) => containsJson(item, wanted)))
    );
  }
  if (pattern !== null && typeof pattern === "object") {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
    const record = value as Record<string, unknown>;
    return Object.entries(pattern).every(
      ([key, wanted]) => Object.hasOwn(record, key) && containsJson(record[key], wanted),
    );
  }
  return value === pattern;
}
