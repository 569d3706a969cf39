// What the contract's schema cannot say about a `sourceUrl` (its scheme, user info, characters and
// length it states: `format: iri`, `pattern`, `maxLength`): the host must be public, and rebuilds
// are idempotent per URL as the WHATWG parser writes it, without the fragment.
import type { FieldError } from "../errors.js";
import { hostRejection } from "./public-host.js";

/** A `sourceUrl` the contract's schema accepted, read for the domain. */
export interface AcceptedSourceUrl {
  /** The idempotency form (`https://Example.com` and `https://example.com/#top` give `https://example.com/`). */
  normalizedUrl: string;
  /** As the URL parser writes it (lower case, punycode, IPv4 dotted). */
  hostname: string;
}

/** The URL read for the domain, or the field error of the public-host rule at `path`. */
export function acceptSourceUrl(sourceUrl: string, path: string): AcceptedSourceUrl | FieldError {
  const url = new URL(sourceUrl);
  const rejection = hostRejection(url.hostname);
  if (rejection !== undefined) {
    return { type: "invalid_value", path, message: `must be of a public host: ${url.hostname} ${rejection}` };
  }
  url.hash = "";
  return { normalizedUrl: url.href, hostname: url.hostname };
}
