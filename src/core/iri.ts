// What an absolute IRI and an http(s) URL are, apart from the other formats (formats.ts): the SDK
// checks every base URL with `isHttpUrl`, and an app bundling the clients should not carry the
// rest (the RFC 3986 expression alone is 1.5 kB).

// White space, a control character (C0, DEL, C1), or one of < > " { } | \ ^ `: never in an IRI (RFC 3987).
const NEVER_IN_IRI = /[\s\0-\x20\x7f-\x9f<>"{}|\\^`]/u;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
// A percent sign without two hex digits after it, or a second `#`: never in an IRI either.
const MALFORMED = /%(?![\dA-Fa-f]{2})|#.*#/;
// The scheme and the authority, where an IP-literal host is the one place brackets may stand.
const SCHEME_AND_AUTHORITY = /^[^:]*:(?:\/\/[^/?#]*)?/;
// `http://` or `https://`, then nothing NEVER_IN_IRI names.
const HTTP_URL = /^https?:\/\/[^\s\0-\x20\x7f-\x9f<>"{}|\\^`]*$/iu;

/**
 * `format: iri`: an absolute IRI (RFC 3987). A scheme, nothing an IRI may never hold, well-formed
 * percent escapes, one fragment at most, brackets only around an IP-literal host, and a value the
 * WHATWG URL parser accepts (it would also accept most of what is excluded here, dropping or
 * encoding it, so a value stored as sent would then break the format in every answer that carries it).
 */
export function isAbsoluteIri(text: string): boolean {
  return (
    SCHEME.test(text) &&
    !NEVER_IN_IRI.test(text) &&
    !MALFORMED.test(text) &&
    !/[[\]]/.test(text.replace(SCHEME_AND_AUTHORITY, "")) &&
    parses(text)
  );
}

/**
 * An absolute `http` or `https` URL written `scheme://…` (the WHATWG parser also forgives
 * `http:example.com`, which no careful client sends): the one URL check of the SDK and the mock
 * for a URL they will send a request to (a base URL, a receiver). Where the contract declares
 * `format: iri`, `isAbsoluteIri` applies instead, which also refuses what fetch would repair.
 */
export function isHttpUrl(text: string): boolean {
  // isAbsoluteIri with the scheme narrowed, in one expression: this ships in every app that uses the clients.
  return HTTP_URL.test(text) && parses(text);
}

/**
 * Whether the WHATWG URL parser accepts `text`. Not `URL.canParse`: on Node 20 its optimized (V8
 * fast API) call refuses a Latin-1 string with a non-ASCII character once the caller is hot, so
 * `https://bücher.example/` turned invalid after some thousand checks (test/unit/validation.test.ts).
 */
function parses(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a URL written `scheme://…` carries user info (`user:pass@`, or anything ending in `@`)
 * before its host: `https://panel.example.com@evil.example/` goes to evil.example. A base URL never
 * may (the clients' `baseUrl`, `buildMagicLink`).
 */
export function hasUserInfo(url: string): boolean {
  return /^[^:/?#]*:\/\/[^/?#]*@/.test(url);
}
