/** Small checks shared by every validator of a parsed JSON body. */

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Length in Unicode code points, the contract's "characters". */
export function codePointLength(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
    length++;
  }
  return length;
}

/** JSON's name for the type of a value, for "expected X, got Y" messages. */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

const MAX_URL_LENGTH = 2048;

/** Why `value` is not an absolute http(s) URL written as `scheme://…`, or undefined when it is one. */
export function httpUrlProblem(value: string): string | undefined {
  if (codePointLength(value) > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  if (!URL.canParse(value)) return "must be an absolute http or https URL";
  const { protocol } = new URL(value);
  if ((protocol !== "http:" && protocol !== "https:") || !/^https?:\/\//i.test(value)) {
    return "must be an absolute http or https URL";
  }
  return undefined;
}
