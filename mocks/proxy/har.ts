// The proxy's recording (`--record FILE.har`): every exchange as a HAR 1.2 entry, appended as it
// happens with the closing brackets rewritten after it, so the file is a whole HAR log at every
// moment (a proxy killed outright leaves one too) and memory holds no entry once written. Every
// secret is replaced before anything is written (decisions/039).
import { closeSync, openSync, writeSync } from "node:fs";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { redact, redactHeaders, secretForms } from "../../src/core/redact.js";
import { VERSION } from "../../src/core/version.js";
import { CREDENTIAL_HEADERS, REBUILD_PARTNER_ID_HEADER } from "../../src/generated/headers.js";

/** The headers whose values are secrets: every security scheme's but the partner id (an identifier). */
const SECRET_HEADERS: readonly string[] = CREDENTIAL_HEADERS.filter(
  (name) => name !== REBUILD_PARTNER_ID_HEADER,
);

/** One exchange as the proxy saw it: the request it forwarded and the answer it passed on. */
export interface HarExchange {
  readonly startedAt: Date;
  readonly method: string;
  /** Where the request went: the service's URL. */
  readonly url: URL;
  readonly requestHeaders: readonly (readonly [string, string])[];
  readonly requestBody: Buffer | null;
  readonly status: number;
  readonly statusText: string;
  readonly responseHeaders: readonly (readonly [string, string])[];
  /** As the service sent it (still encoded when `content-encoding` says so). */
  readonly responseBody: Buffer;
  /** From the request's arrival to the answer's last byte. */
  readonly ms: number;
}

/**
 * The secrets of a run, learnt from its traffic: credentials the client sent (the headers of the
 * contract's security schemes: a Bearer token, the rebuild API key or a webhook key; an HTTP
 * credential both whole and without its auth-scheme) and every string field `token` of a JSON body
 * (what a token creation answers). Each is replaced in every form a server could echo it.
 */
export class Secrets {
  // Each secret with its forms, oldest first; the flattened list is what `redact` takes.
  #known = new Map<string, readonly string[]>();
  #forms: string[] = [];

  learn(exchange: HarExchange, requestJson: unknown, responseJson: unknown): void {
    for (const [name, value] of exchange.requestHeaders) {
      const header = name.toLowerCase();
      if (!SECRET_HEADERS.includes(header)) continue;
      this.#add(value.trim());
      // `Bearer <token>` (RFC 9110 §11.4): the token alone too. A key without a space adds nothing.
      const credentials = value.replace(/^\s*\S+\s+/, "");
      if (credentials !== value) this.#add(credentials);
    }
    for (const body of [requestJson, responseJson]) for (const token of tokensIn(body, 0)) this.#add(token);
  }

  /** `text` with every secret learnt so far replaced. */
  redact(text: string): string {
    return redact(text, this.#forms);
  }

  /** Header pairs with credential headers replaced whole and secrets redacted from the rest. */
  headers(pairs: readonly (readonly [string, string])[]): { name: string; value: string }[] {
    return pairs.map(([name, value]) => {
      let shown: string;
      try {
        shown = redactHeaders(new Headers([[name, value]]), this.#forms).get(name) ?? "";
      } catch {
        // Not a value Headers takes (it never reached a client that way): shown redacted as text.
        shown = this.redact(value);
      }
      return { name, value: shown };
    });
  }

  #add(secret: string): void {
    if (secret.length === 0 || this.#known.has(secret)) return;
    this.#known.set(secret, secretForms([secret]));
    // A client sending ever new credentials must not grow the proxy without bound: the oldest is
    // forgotten (its header is still replaced whole; only a later echo of it would show).
    if (this.#known.size > MAX_SECRETS) this.#known.delete(this.#known.keys().next().value as string);
    this.#forms = [...this.#known.values()].flat();
  }
}

/** Distinct secrets remembered: an app's own credentials and the tokens it creates are a few. */
const MAX_SECRETS = 256;

// Bodies are JSON the proxy parsed: deep enough for any body of the contract, and bounded.
const MAX_DEPTH = 32;

function tokensIn(value: unknown, depth: number): string[] {
  if (depth > MAX_DEPTH || value === null || typeof value !== "object") return [];
  const out: string[] = [];
  for (const [key, inner] of Object.entries(value)) {
    if (key === "token" && typeof inner === "string") out.push(inner);
    else out.push(...tokensIn(inner, depth + 1));
  }
  return out;
}

/** The body as text: decoded as `content-encoding` says (bounded by `maxBytes`), else undefined. */
export function decodedBody(
  body: Buffer,
  headers: readonly (readonly [string, string])[],
  maxBytes: number,
): string | undefined {
  const encoding = headers
    .find(([name]) => name.toLowerCase() === "content-encoding")?.[1]
    .trim()
    .toLowerCase();
  const options = { maxOutputLength: maxBytes };
  try {
    if (!encoding || encoding === "identity") return body.toString("utf8");
    if (encoding === "gzip" || encoding === "x-gzip") return gunzipSync(body, options).toString("utf8");
    if (encoding === "deflate") return inflateSync(body, options).toString("utf8");
    if (encoding === "br") return brotliDecompressSync(body, options).toString("utf8");
  } catch {
    // Not what the header says, or larger than the proxy holds: no text to check or record.
  }
  return undefined;
}

const FOOTER = "]}}\n";

/** Appends entries to a HAR 1.2 file; `close` leaves it whole. */
export interface HarWriter {
  add(
    exchange: HarExchange,
    secrets: Secrets,
    requestText: string | undefined,
    responseText: string | undefined,
  ): void;
  close(): void;
}

export function openHar(file: string): HarWriter {
  const fd = openSync(file, "w");
  const head = `{"log":{"version":"1.2","creator":{"name":"rebuild-dashboard-kit proxy","version":${JSON.stringify(VERSION)}},"entries":[`;
  writeSync(fd, head + FOOTER, 0);
  // Where the footer starts: the next entry is written over it, and the footer after it again.
  let at = Buffer.byteLength(head);
  let first = true;
  let closed = false;
  return {
    add(exchange, secrets, requestText, responseText) {
      if (closed) return;
      const text = `${first ? "" : ","}${JSON.stringify(entry(exchange, secrets, requestText, responseText))}`;
      first = false;
      writeSync(fd, text + FOOTER, at);
      at += Buffer.byteLength(text);
    },
    close() {
      if (closed) return;
      closed = true;
      closeSync(fd);
    },
  };
}

function headerValue(pairs: readonly (readonly [string, string])[], wanted: string): string | undefined {
  return pairs.find(([name]) => name.toLowerCase() === wanted)?.[1];
}

function entry(
  x: HarExchange,
  secrets: Secrets,
  requestText: string | undefined,
  responseText: string | undefined,
) {
  const url = secrets.redact(x.url.href);
  const requestType = headerValue(x.requestHeaders, "content-type") ?? "";
  const responseType = headerValue(x.responseHeaders, "content-type") ?? "";
  return {
    startedDateTime: x.startedAt.toISOString(),
    time: x.ms,
    request: {
      method: x.method,
      url,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: secrets.headers(x.requestHeaders),
      queryString: [...new URL(url).searchParams].map(([name, value]) => ({ name, value })),
      ...(x.requestBody
        ? {
            postData: {
              mimeType: requestType,
              ...(requestText === undefined
                ? { text: "", comment: "not recorded: larger than the operation takes, sent on unread" }
                : { text: secrets.redact(requestText) }),
            },
          }
        : {}),
      headersSize: -1,
      bodySize: x.requestBody?.length ?? 0,
    },
    response: {
      status: x.status,
      statusText: x.statusText,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: secrets.headers(x.responseHeaders),
      content: {
        size: responseText === undefined ? x.responseBody.length : Buffer.byteLength(responseText),
        mimeType: responseType,
        ...(responseText === undefined
          ? { comment: "not recorded: a body the proxy could not decode" }
          : { text: secrets.redact(responseText) }),
      },
      redirectURL: "",
      headersSize: -1,
      bodySize: x.responseBody.length,
    },
    cache: {},
    timings: { send: 0, wait: x.ms, receive: 0 },
  };
}
