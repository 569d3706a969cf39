// The "valid email address" production of the HTML standard (input type=email), verbatim.
const HTML_EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/**
 * What an HTML `type=email` input accepts. The input strips surrounding whitespace before checking;
 * an API receives the value as sent, so surrounding whitespace makes it invalid here.
 */
export function isValidEmailAddress(value: string): boolean {
  return HTML_EMAIL.test(value);
}

/** Emails match case-insensitively (contract-decisions), so indexes are keyed by this form. */
export function emailKey(email: string): string {
  return email.toLowerCase();
}
