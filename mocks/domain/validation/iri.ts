/**
 * Whether `text` holds a character no IRI may hold (RFC 3987, the contract's `format: iri`): a space
 * or other white space, a control character (C0, DEL, C1), or one of < > " { } | \ ^ `. The WHATWG URL
 * parser would accept most of these (dropping, or percent-encoding them), so a parse alone lets them
 * through, and the stored value would then break `format: iri` in every answer that carries it.
 */
export function holdsNonIriCharacter(text: string): boolean {
  return /[\s\u0000-\u001f\u007f-\u009f<>"{}|\\^`]/u.test(text);
}
