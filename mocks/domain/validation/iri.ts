const NEVER_IN_IRI = new Set(["<", ">", '"', "{", "}", "|", "\\", "^", "`"]);

/**
 * Whether `text` holds a character no IRI may hold (RFC 3987, the contract's `format: iri`): white
 * space, a control character (C0, DEL, C1), or one of < > " { } | \ ^ `. The WHATWG URL parser would
 * accept most of these (dropping, or percent-encoding them), so a parse alone lets them through, and
 * the stored value would then break `format: iri` in every answer that carries it.
 */
export function holdsNonIriCharacter(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f) || NEVER_IN_IRI.has(char) || /\s/u.test(char)) {
      return true;
    }
  }
  return false;
}
