import { codePointLength } from "../validation/json-input.js";

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
