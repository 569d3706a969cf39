import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";

/** The Ajv every contract check uses: JSON Schema 2020-12, OpenAPI keywords tolerated, the contract's formats. */
export function createContractAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // ajv-formats has no `iri` (RFC 3987, an absolute URI that may hold non-ASCII characters): a
  // scheme, nothing an IRI may never contain (white space, control characters, <>"{}|\^`), every
  // `%` starting an escape, one `#` at most, brackets only around an IP-literal host, and a value
  // URL parsing accepts.
  ajv.addFormat(
    "iri",
    (value) =>
      /^[a-z][a-z0-9+.-]*:/i.test(value) &&
      ![...value].some(neverInIri) &&
      !/%(?![0-9a-f]{2})/i.test(value) &&
      value.split("#").length <= 2 &&
      !/[[\]]/.test(value.replace(/^[^:]*:(\/\/[^/?#]*)?/, "")) &&
      parses(value),
  );
  return ajv;
}

/** Not `URL.canParse`, which Node 20 gets wrong for a Latin-1 string once hot (src/core/iri.ts). */
function parses(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** White space, a control character (C0, DEL, C1), or one of < > " { } | \ ^ `. */
function neverInIri(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return code <= 0x20 || (code >= 0x7f && code <= 0x9f) || '<>"{}|\\^`'.includes(char) || /\s/u.test(char);
}
