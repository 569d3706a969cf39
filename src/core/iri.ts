// What an absolute IRI and an http(s) URL are, apart from the other formats (formats.ts): the SDK
// checks every base URL with `isHttpUrl`, and an app bundling the clients should not carry the
// rest (the RFC 3986 expression alone is 1.5 kB).

// White space, a control character (C0, DEL, C1), or one of < > " { } | \ ^ `: never in an IRI (RFC 3987).
const NEVER_IN_IRI = /[\s\0-\x20\x7f-\x9f<>"{}|\\^`]/u;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
// `http://` or `https://`, then nothing NEVER_IN_IRI names.
const HTTP_URL = /^https?:\/\/[^\s\0-\x20\x7f-\x9f<>"{}|\\^`]*$/iu;

/**
 * `format: iri`: an absolute IRI. A scheme, nothing an IRI may never hold, and a value the WHATWG
 * URL parser accepts (it would also accept most of the excluded characters, dropping or encoding
 * them, so a value stored as sent would then break the format in every answer that carries it).
 */
export function isAbsoluteIri(text: string): boolean {
  return SCHEME.test(text) && !NEVER_IN_IRI.test(text) && URL.canParse(text);
}

/**
 * An absolute `http` or `https` URL written `scheme://…` (the WHATWG parser also forgives
 * `http:example.com`, which no careful client sends): the one URL check of the SDK and the mock.
 */
export function isHttpUrl(text: string): boolean {
  // isAbsoluteIri with the scheme narrowed, in one expression: this ships in every app that uses the clients.
  return HTTP_URL.test(text) && URL.canParse(text);
}
