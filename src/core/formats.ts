// The string formats the contract declares (`format:` in openapi/*.yaml), implemented once. The
// validators generated from the contract (src/generated/*-validators.js) and the webhook receiver's
// exact check (src/webhooks/exact-check.ts) call `formats`; the mock's error messages name a format
// with `FORMAT_DESCRIPTIONS`. `iri` and the one http(s) URL check sit in iri.ts, which the SDK's
// clients import alone. Nothing here knows about a particular field.
import { isAbsoluteIri } from "./iri.js";

// RFC 3986 URI: the regular expression of ajv-formats' `uri` (MIT, https://github.com/ajv-validator/ajv-formats).
const URI =
  /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const IPV4 =
  /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])$/;
const IPV6_CHARACTERS = /^[0-9A-Fa-f:.]+$/;
// RFC 3339 `date-time`. The offset is required: without one a parser reads the host's zone.
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
// Timestamps are written in UTC with a four-digit year, so an instant outside these years has no text.
const EARLIEST_MS = Date.parse("0000-01-01T00:00:00Z");
const LATEST_MS = Date.parse("9999-12-31T23:59:59.999Z");

/** `format: uri`: an absolute URI as RFC 3986 writes it (ASCII, percent-encoding well formed). */
function isAbsoluteUri(text: string): boolean {
  return URI.test(text);
}

/** `format: uuid`: a GUID, 8-4-4-4-12 hex digits in either case (version and variant bits not checked). */
function isGuid(text: string): boolean {
  return GUID.test(text);
}

/** `format: ipv4`: a dotted quad of decimal numbers 0 to 255 without leading zeros. */
function isIpv4(text: string): boolean {
  return IPV4.test(text);
}

/** `format: ipv6`: an IPv6 address in any RFC 4291 spelling (no zone), as the URL parser reads a host. */
function isIpv6(text: string): boolean {
  return IPV6_CHARACTERS.test(text) && text.includes(":") && URL.canParse(`http://[${text}]/`);
}

/** `format: date-time`: RFC 3339 with an offset, a real calendar date and time, in years 0000 to 9999. */
function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const [hour, minute, second] = [Number(match[4]), Number(match[5]), Number(match[6])];
  const [offsetHour, offsetMinute] = [Number(match[7] ?? 0), Number(match[8] ?? 0)];
  // Date.parse rolls 2026-02-30 over to March 2 and 24:00 over to the next day instead of failing.
  const leapDay = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 1 : 0;
  const ms = parseDateTime(text);
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= (DAYS_IN_MONTH[month - 1] ?? 0) + leapDay &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHour <= 23 &&
    offsetMinute <= 59 &&
    ms >= EARLIEST_MS &&
    ms <= LATEST_MS
  );
}

/** Epoch milliseconds of a text `isDateTime` accepts. */
export function parseDateTime(text: string): number {
  // RFC 3339 allows a lower-case `t` and `z`; not every engine's Date.parse does.
  return Date.parse(text.toUpperCase());
}

/**
 * Every format the contract declares, by its name there; the generated validators
 * (src/generated/*-validators.js, which knip does not read) look them up here.
 * @public
 */
export const formats: Readonly<Record<string, (text: string) => boolean>> = {
  iri: isAbsoluteIri,
  uri: isAbsoluteUri,
  uuid: isGuid,
  "date-time": isDateTime,
  ipv4: isIpv4,
  ipv6: isIpv6,
};

/** What each format means, as the end of a sentence "must be …" (field error messages). */
export const FORMAT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  iri: 'an absolute URL without white space, control characters or any of < > " { } | \\ ^ `',
  uri: "an absolute URI as RFC 3986 writes it (ASCII, well-formed percent-encoding)",
  uuid: "a GUID (8-4-4-4-12 hexadecimal digits)",
  "date-time": "an RFC 3339 date-time with an offset, such as 2026-01-01T00:00:00+00:00",
  ipv4: "an IPv4 address (dotted quad)",
  ipv6: "an IPv6 address",
};
