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

/**
 * Every form in which a server could echo a credential it received (a header value, so Latin-1):
 * as given (and as a JSON string writes it), and Base64 or Base64url inside any longer encoded text (such as `Bearer <token>`, a
 * JSON dump of the headers or a Basic credential): for each of the three byte alignments, the
 * characters that encode the secret's bytes alone. Each of those as it is and percent-encoded (as
 * `encodeURIComponent`, `encodeURI` and URLSearchParams write it), and in lower case (servers that
 * lower-case hex escapes or whole values). Forms shorter than 6 characters are left out, since they
 * would match ordinary text.
 */
export function secretForms(secrets: readonly string[]): string[] {
  return (
    secrets
      // As JSON writes it inside a string, too (a dump of the headers, Base64-encoded).
      .flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)])
      .flatMap((secret) => [
        secret,
        // Characters mixing the secret's bits with a neighbour's depend on the surrounding text.
        ...[0, 1, 2].map((shift) =>
          btoa("\0".repeat(shift) + secret)
            .replace(/=+$/, "")
            .slice(shift && shift + 1, (shift + secret.length) % 3 ? -1 : undefined),
        ),
      ])
      .flatMap((form) => [form, form.replaceAll("+", "-").replaceAll("/", "_")])
      .flatMap((form) => [
        form,
        encodeURIComponent(form),
        encodeURI(form),
        new URLSearchParams({ "": form }).toString().slice(1),
      ])
      .flatMap((form) => [form, form.toLowerCase()])
      .filter((form) => form.length >= 6)
  );
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
  const hidden = [...SENSITIVE_HEADERS, ...extraNames.map((name) => name.toLowerCase())];
  const out = new Headers();
  headers.forEach((value, name) => {
    out.set(name, hidden.includes(name) ? REDACTED : redact(value, secrets));
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
      : // An object or a function (not a primitive).
        Object(value) === value || (typeof value === "string" && redact(value, secrets) !== value);
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
