import { type FieldError, validationFailed } from "../errors.js";
import { holdsNonIriCharacter } from "../validation/iri.js";
import { codePointLength, isJsonObject, jsonType } from "../validation/json-input.js";
import { hostRejection } from "./public-host.js";

const MAX_SOURCE_URL_LENGTH = 2048;
const MAX_PROMPT_LENGTH = 10_000;

/** A submission body that passed validation. */
export interface ValidSubmission {
  /** As sent; the callback's `source_url`. */
  sourceUrl: string;
  /**
   * The idempotency form: as the WHATWG URL parser writes it, without the fragment
   * (`https://Example.com` and `https://example.com/#top` give `https://example.com/`).
   */
  normalizedUrl: string;
  /** Host as the URL parser writes it (lower case, punycode, IPv4 dotted). */
  hostname: string;
  prompt: string | null;
}

// The WHATWG parser forgives "http:example.com" and "http:\\example.com"; a careful client sends
// the scheme followed by "//", so anything else is not taken for an absolute URL.
const ABSOLUTE_HTTP = /^https?:\/\//i;

/**
 * Checks a parsed submission body and collects every field error. Throws VALIDATION_FAILED; an
 * empty body (undefined), an array, null or a scalar gets one error at the root path `""`.
 */
export function validateSubmission(body: unknown): ValidSubmission {
  if (!isJsonObject(body)) {
    const what = body === undefined ? "is missing" : `must be a JSON object, got ${jsonType(body)}`;
    throw validationFailed([
      { type: body === undefined ? "required" : "invalid_type", path: "", message: `Body ${what}` },
    ]);
  }
  const errors: FieldError[] = [];
  for (const key of Object.keys(body)) {
    if (key !== "sourceUrl" && key !== "prompt") {
      errors.push({ type: "unknown_field", path: key, message: "is not a field of a rebuild request" });
    }
  }
  const source = checkSourceUrl(body.sourceUrl, errors);
  const prompt = checkPrompt(body.prompt, "prompt" in body, errors);
  if (errors.length > 0 || source === undefined) throw validationFailed(errors);
  return { ...source, prompt };
}

function checkSourceUrl(value: unknown, errors: FieldError[]): Omit<ValidSubmission, "prompt"> | undefined {
  const fail = (type: FieldError["type"], message: string) => {
    errors.push({ type, path: "sourceUrl", message });
    return undefined;
  };
  if (value === undefined) return fail("required", "is required");
  if (typeof value !== "string") return fail("invalid_type", `must be a string, got ${jsonType(value)}`);
  if (codePointLength(value) > MAX_SOURCE_URL_LENGTH) {
    return fail("too_big", `must be at most ${MAX_SOURCE_URL_LENGTH} characters`);
  }
  if (holdsNonIriCharacter(value)) {
    return fail("invalid_format", 'must not contain spaces, control characters or any of < > " { } | \\ ^ `');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail("invalid_format", "must be an absolute http or https URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return fail("invalid_value", `must use http or https, not ${url.protocol.slice(0, -1)}`);
  }
  if (!ABSOLUTE_HTTP.test(value))
    return fail("invalid_format", "must be an absolute URL (http:// or https://)");
  // `https://@host/` has empty user info, which the parser reports as none; any `@` before the host counts.
  if (url.username !== "" || url.password !== "" || /^https?:\/\/[^/?#]*@/i.test(value)) {
    return fail("invalid_value", "must not contain user info");
  }
  const rejection = hostRejection(url.hostname);
  if (rejection !== undefined) {
    return fail("invalid_value", `must be of a public host: ${url.hostname} ${rejection}`);
  }
  url.hash = "";
  return { sourceUrl: value, normalizedUrl: url.href, hostname: url.hostname };
}

function checkPrompt(value: unknown, present: boolean, errors: FieldError[]): string | null {
  if (!present) return null;
  if (typeof value !== "string") {
    errors.push({
      type: "invalid_type",
      path: "prompt",
      message: `must be a string, got ${jsonType(value)}`,
    });
  } else if (codePointLength(value) > MAX_PROMPT_LENGTH) {
    errors.push({
      type: "too_big",
      path: "prompt",
      message: `must be at most ${MAX_PROMPT_LENGTH} characters`,
    });
  } else {
    return value;
  }
  return null;
}
