import { CREDENTIAL_HEADERS } from "../generated/headers.js";

/** What a redacted secret is replaced with, in log lines, error messages and headers. */
const REDACTED = "[REDACTED]";

/**
 * The shortest run of a secret's characters that is hidden wherever it appears: no 8 characters in
 * a row of any form of a secret are ever shown, so neither is a prefix, a suffix or a part of one
 * that long (a value cut short, the key minus its last character).
 */
const RUN = 8;

// Letter case folded without changing any index (toLowerCase lengthens a few characters, such as İ).
const fold = (text: string) => text.replace(/[A-ZÀ-ÖØ-Þ]+/g, (letters) => letters.toLowerCase());

/** Per list of secret forms: every run of RUN folded characters in them, and the shorter forms whole. */
const runsOf = new WeakMap<readonly string[], Set<string>>();

/**
 * `text` with every stretch made of `secrets` replaced by one `[REDACTED]`: each occurrence of a
 * secret, and every run of 8 or more characters of one (so a cut or shortened copy too), compared
 * without regard to letter case. A secret shorter than 8 characters is hidden only whole. Linear
 * in `text`'s length.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let runs = runsOf.get(secrets);
  if (!runs) {
    runs = new Set();
    runsOf.set(secrets, runs);
    for (const secret of secrets.filter(Boolean).map(fold)) {
      for (let n = 0; n <= Math.max(secret.length - RUN, 0); n++) runs.add(secret.slice(n, n + RUN));
    }
  }
  const folded = fold(text);
  // hidden[n]: character n belongs to a secret.
  const hidden = new Uint8Array(text.length);
  for (const size of new Set(secrets.map((secret) => Math.min(secret.length, RUN)))) {
    for (let n = 0; size && n + size <= text.length; n++) {
      if (runs.has(folded.slice(n, n + size))) hidden.fill(1, n, n + size);
    }
  }
  // Each stretch of hidden characters becomes one mark.
  return hidden.includes(1)
    ? text.replace(/[\s\S]/g, (char, n: number) => (hidden[n] ? (hidden[n - 1] ? "" : REDACTED) : char))
    : text;
}

/**
 * Every form in which a server could echo a credential it received (a header value, so Latin-1):
 * as given (and as a JSON string writes it), as the hex of its UTF-8 bytes (as a Node server's Buffer.from writes them), and Base64 or Base64url
 * inside any longer encoded text (such as `Bearer <token>`, a JSON dump of the headers or a Basic
 * credential): for each of the three byte alignments, the characters that encode the secret's
 * bytes alone. Each of those as it is and percent-encoded (as `encodeURIComponent`, `encodeURI`
 * and URLSearchParams write it). `redact` compares them in any letter case, and hides any run of 8
 * of their characters. Forms shorter than 6 characters are left out, since they would match
 * ordinary text.
 */
export function secretForms(secrets: readonly string[]): string[] {
  return (
    secrets
      // As JSON writes it inside a string, too (a dump of the headers, Base64-encoded).
      .flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)])
      .flatMap((secret) => [
        secret,
        [...new TextEncoder().encode(secret)].map((byte) => byte.toString(16).padStart(2, "0")).join(""),
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
      .filter((form) => form.length >= 6)
  );
}

/**
 * Every security scheme's header (the contract's: the clients' credentials are sent in these) and
 * HTTP's own credential headers, lower case as `Headers` gives names.
 */
const SENSITIVE_HEADERS: readonly string[] = [
  ...CREDENTIAL_HEADERS,
  "proxy-authorization",
  "cookie",
  "set-cookie",
];

/** Header values safe to show: values of sensitive headers replaced whole, secrets redacted from the rest. */
export function redactHeaders(headers: Headers, secrets: readonly string[]): Headers {
  const out = new Headers();
  headers.forEach((value, name) => {
    out.set(name, SENSITIVE_HEADERS.includes(name) ? REDACTED : redact(value, secrets));
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
