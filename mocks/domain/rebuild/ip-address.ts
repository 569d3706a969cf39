/**
 * IP literal parsing written out by hand, so the public-host rules never depend on one URL parser's
 * normalisation alone: an IPv4 host is read in every notation the WHATWG URL standard accepts.
 */

const HEX_PART = /^[0-9a-f]*$/i;
const OCTAL_PART = /^[0-7]+$/;
const DECIMAL_PART = /^[0-9]+$/;
const IPV6_GROUP = /^[0-9a-f]{1,4}$/i;
const STRICT_OCTET = /^(?:0|[1-9][0-9]{0,2})$/;

/**
 * Whether a host would be read as IPv4 by the WHATWG URL parser ("ends in a number"): its last label
 * (ignoring one trailing dot) is all digits or a `0x` hex number. Such a host is IPv4 or invalid,
 * never a domain name.
 */
export function endsInNumber(host: string): boolean {
  const labels = host.split(".");
  if (labels.length > 1 && labels.at(-1) === "") labels.pop();
  const last = labels.at(-1) ?? "";
  return DECIMAL_PART.test(last) || /^0x[0-9a-f]*$/i.test(last);
}

/**
 * An IPv4 host in any WHATWG notation (1 to 4 parts, each decimal, `0`-prefixed octal or `0x` hex,
 * the last part filling the remaining bytes: `2130706433`, `0177.0.0.1`, `0x7f.1`) as an unsigned
 * 32-bit number, or undefined when it is not one.
 */
export function parseIpv4(host: string): number | undefined {
  const parts = host.split(".");
  if (parts.length > 1 && parts.at(-1) === "") parts.pop();
  if (parts.length > 4) return undefined;
  const numbers: number[] = [];
  for (const part of parts) {
    const value = parseIpv4Part(part);
    if (value === undefined) return undefined;
    numbers.push(value);
  }
  const last = numbers.pop();
  if (last === undefined || last >= 256 ** (4 - numbers.length)) return undefined;
  let address = last;
  for (const [index, value] of numbers.entries()) {
    if (value > 255) return undefined;
    address += value * 256 ** (3 - index);
  }
  return address;
}

function parseIpv4Part(part: string): number | undefined {
  if (part === "") return undefined;
  if (/^0x/i.test(part)) {
    const digits = part.slice(2);
    if (!HEX_PART.test(digits)) return undefined;
    return digits === "" ? 0 : Number.parseInt(digits, 16);
  }
  if (part.length > 1 && part.startsWith("0")) {
    return OCTAL_PART.test(part) ? Number.parseInt(part, 8) : undefined;
  }
  return DECIMAL_PART.test(part) ? Number.parseInt(part, 10) : undefined;
}

/** A strict dotted quad (`192.0.2.1`, no leading zeros), the only IPv4 form written in configuration. */
function parseDottedQuad(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let address = 0;
  for (const part of parts) {
    if (!STRICT_OCTET.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    address = address * 256 + octet;
  }
  return address;
}

/**
 * An IPv6 address without brackets (`::1`, `2001:db8::1`, `::ffff:192.0.2.1`) as a 128-bit bigint,
 * or undefined. Zone identifiers (`%eth0`) are not accepted: they have no meaning in a URL.
 */
export function parseIpv6(text: string): bigint | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const [head = "", tail] = halves;
  const headGroups = parseGroups(head, tail === undefined);
  const tailGroups = tail === undefined ? [] : parseGroups(tail, true);
  if (!headGroups || !tailGroups) return undefined;
  const given = headGroups.length + tailGroups.length;
  if (tail === undefined ? given !== 8 : given > 7) return undefined;
  const groups = [...headGroups, ...Array<number>(8 - given).fill(0), ...tailGroups];
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

function parseGroups(text: string, mayEndInIpv4: boolean): number[] | undefined {
  if (text === "") return [];
  const parts = text.split(":");
  const groups: number[] = [];
  for (const [index, part] of parts.entries()) {
    if (mayEndInIpv4 && index === parts.length - 1 && part.includes(".")) {
      const v4 = parseDottedQuad(part);
      if (v4 === undefined) return undefined;
      groups.push(Math.floor(v4 / 0x10000), v4 % 0x10000);
    } else if (IPV6_GROUP.test(part)) {
      groups.push(Number.parseInt(part, 16));
    } else {
      return undefined;
    }
  }
  return groups;
}

function formatIpv4(address: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(address / 2 ** shift) % 256).join(".");
}

/** RFC 5952 text: lower case, the longest run of two or more zero groups written `::`. */
function formatIpv6(address: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((address >> BigInt(112 - 16 * i)) & 0xffffn));
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; start++) {
    let length = 0;
    while (start + length < 8 && groups[start + length] === 0) length++;
    if (length > bestLength) {
      bestStart = start;
      bestLength = length;
    }
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}

const IPV4_MAPPED_PREFIX = 0xffffn << 32n;

/**
 * One spelling per address, for comparing configured server IPs with a login's IP: a strict dotted
 * quad or IPv6 (optionally in brackets); an IPv4-mapped IPv6 address is written as its IPv4 address,
 * since a dual-stack socket reports IPv4 clients that way. Undefined when `text` is not an IP.
 */
export function canonicalIp(text: string): string | undefined {
  const v4 = parseDottedQuad(text);
  if (v4 !== undefined) return formatIpv4(v4);
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const v6 = parseIpv6(bare);
  if (v6 === undefined) return undefined;
  if (v6 >> 32n === IPV4_MAPPED_PREFIX >> 32n) return formatIpv4(Number(v6 & 0xffffffffn));
  return formatIpv6(v6);
}
