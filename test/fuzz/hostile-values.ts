// Building blocks of hostile requests: values of the wrong JSON type, text that is not JSON, deep
// nesting, odd media types and header garbage. Each is bad by construction, never "bad by luck".
import fc from "fast-check";

export type JsonType = "string" | "number" | "boolean" | "null" | "array" | "object";

/** 1 MiB, the body limit (contract-decisions: "bodies over 1 MiB" get 413). */
const MAX_BODY_BYTES = 1024 * 1024;

/** Text with code points from every plane, unpaired surrogates excluded (JSON would not carry them). */
export const unicodeText = (maxLength = 40) => fc.string({ unit: "grapheme", maxLength });

/**
 * Text that node:http sends in a header as is: tab, visible ASCII, space and Latin-1, without
 * surrounding whitespace (HTTP parsers strip it, which could turn garbage back into a credential).
 */
export const headerText = (maxLength = 60) =>
  fc
    .string({
      unit: fc
        .integer({ min: 0x20, max: 0xff })
        .filter((c) => c < 0x7f || c >= 0xa0)
        .map((c) => String.fromCharCode(c)),
      maxLength,
    })
    .map((text) => text.trim());

const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 3 });

/** A JSON value whose type is none of `allowed`. */
export function wrongType(...allowed: JsonType[]): fc.Arbitrary<unknown> {
  const byType: Record<JsonType, fc.Arbitrary<unknown>> = {
    string: unicodeText(),
    number: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
    boolean: fc.boolean(),
    null: fc.constant(null),
    array: fc.array(anyJson, { maxLength: 4 }),
    object: fc.dictionary(unicodeText(10), anyJson, { maxKeys: 4 }),
  };
  return fc.oneof(
    ...(Object.keys(byType) as JsonType[])
      .filter((type) => !allowed.includes(type))
      .map((type) => byType[type]),
  );
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Text that JSON.parse rejects: truncated bodies, JavaScript-isms, random characters. */
export function notJson(valid: string): fc.Arbitrary<string> {
  return fc.oneof(
    // Every proper prefix of an object's text lacks its closing brace.
    fc.integer({ min: 1, max: Math.max(1, valid.length - 1) }).map((end) => valid.slice(0, end)),
    fc.constantFrom(
      "{'a':1}",
      "{a:1}",
      '{"a":1,}',
      "[1,2,]",
      "NaN",
      "undefined",
      "{/* */}",
      '{"a":01}',
      "\u0000",
    ),
    unicodeText(60).filter((text) => text.trim() !== "" && !isJson(text)),
    fc.constant(" \t\r\n"),
  );
}

/** JSON nested `depth` levels deep, as text (building it as a value would need the recursion it tests). */
export const deepNesting = fc
  .tuple(fc.integer({ min: 100, max: 100_000 }), fc.constantFrom(["[", "]"], ['{"a":', "}"]))
  .map(([depth, [open, close]]) => `${open.repeat(depth)}0${close.repeat(depth)}`);

/** A Content-Type that is not JSON (`application/json` or `*\/*+json`): 415 for a non-empty body. */
export const notJsonMediaType = fc.oneof(
  fc.constantFrom(
    "text/plain",
    "text/json",
    "application/xml",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/jsonx",
    "application/json-patch",
    "application/+json",
    "json",
    "*/*",
    "application/*",
    "",
  ),
  headerText(30).filter((type) => !/^[^/;]+\/([^;]*\+)?json\s*(;|$)/i.test(type.trim())),
);

/** Bytes of `text` with one byte that is never valid UTF-8 put inside it. */
export function withInvalidUtf8(text: string): fc.Arbitrary<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return fc
    .tuple(fc.integer({ min: 0, max: bytes.length }), fc.constantFrom(0xff, 0xfe, 0xc0, 0x80))
    .map(([at, bad]) => {
      const out = new Uint8Array(bytes.length + 1);
      out.set(bytes.subarray(0, at), 0);
      out[at] = bad;
      out.set(bytes.subarray(at), at + 1);
      return out;
    });
}

/** `json` padded with spaces to just over the limit: valid JSON, too large. */
export function oversized(json: string): Uint8Array {
  const size = MAX_BODY_BYTES + 1 + (json.length % 1000);
  const out = new Uint8Array(size).fill(0x20);
  out.set(new TextEncoder().encode(json), 0);
  return out;
}

/** A query value made safe for a URL. */
export const q = (value: string) => encodeURIComponent(value);
