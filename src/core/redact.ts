/** What a redacted secret is replaced with, in log lines, error messages and headers. */
const REDACTED = "[REDACTED]";

/**
 * `text` with every occurrence of each non-empty secret replaced by `[REDACTED]`. Longer secrets go
 * first so a secret that contains another is replaced whole.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret) out = out.replaceAll(secret, REDACTED);
  }
  return out;
}

const SENSITIVE_HEADERS = ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"];

/**
 * Header values safe to show: values of sensitive headers (and of `extraNames`, compared
 * case-insensitively) replaced whole, secrets redacted from the rest.
 */
export function redactHeaders(
  headers: Headers,
  secrets: readonly string[],
  extraNames: readonly string[] = [],
): Headers {
  const hidden = new Set([...SENSITIVE_HEADERS, ...extraNames.map((name) => name.toLowerCase())]);
  const out = new Headers();
  headers.forEach((value, name) => {
    out.set(name, hidden.has(name) ? REDACTED : redact(value, secrets));
  });
  return out;
}

/**
 * `error` itself when nothing in it can carry a secret: its message, stack and own enumerable
 * properties are strings without a secret or other primitives, and so is its cause, recursively.
 * Otherwise a plain `Error` with the same name, the message redacted and the `code` (of the error or
 * its cause), nothing else: a custom fetch's `error.request`, headers included, is dropped. Fetch
 * errors become an SDK error's `cause`, so this is what keeps secrets out of it.
 */
export function sanitizeError(error: unknown, secrets: readonly string[]): unknown {
  const leaks = (value: unknown, depth: number): boolean =>
    value instanceof Error
      ? depth > 4 ||
        [value.message, value.stack, value.cause, ...Object.values(value)].some((v) => leaks(v, depth + 1))
      : (value !== null && typeof value === "object") ||
        typeof value === "function" ||
        (typeof value === "string" && redact(value, secrets) !== value);
  if (!leaks(error, 0)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return Object.assign(new Error(redact(message, secrets)), {
    name: error instanceof Error ? error.name : "Error",
    code: errorCode(error),
  });
}

/** The `code` of an error or of its causes (undici puts it on the cause: `TypeError("fetch failed")`). */
export function errorCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; depth < 3 && typeof e === "object" && e !== null; depth++) {
    const { code, cause } = e as { code?: unknown; cause?: unknown };
    if (typeof code === "string") return code;
    e = cause;
  }
  return undefined;
}
