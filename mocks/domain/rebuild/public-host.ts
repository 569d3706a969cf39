import { endsInNumber, parseIpv4, parseIpv6 } from "./ip-address.js";

/** [network, prefix length, why it is not public] */
type Ipv4Range = readonly [network: number, prefix: number, reason: string];
type Ipv6Range = readonly [network: bigint, prefix: number, reason: string];

const v4 = (a: number, b: number, c: number, d: number) => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

// contract-decisions item 4: every IPv4 block that is not public unicast.
const IPV4_NOT_PUBLIC: readonly Ipv4Range[] = [
  [v4(0, 0, 0, 0), 8, "is in 0.0.0.0/8 ('this network')"],
  [v4(10, 0, 0, 0), 8, "is a private address (10.0.0.0/8)"],
  [v4(100, 64, 0, 0), 10, "is a shared CGNAT address (100.64.0.0/10)"],
  [v4(127, 0, 0, 0), 8, "is a loopback address (127.0.0.0/8)"],
  [v4(169, 254, 0, 0), 16, "is a link-local address (169.254.0.0/16)"],
  [v4(172, 16, 0, 0), 12, "is a private address (172.16.0.0/12)"],
  [v4(192, 0, 0, 0), 24, "is reserved for IETF protocol assignments (192.0.0.0/24)"],
  [v4(192, 0, 2, 0), 24, "is a documentation address (192.0.2.0/24)"],
  [v4(192, 88, 99, 0), 24, "is a deprecated 6to4 relay anycast address (192.88.99.0/24)"],
  [v4(192, 168, 0, 0), 16, "is a private address (192.168.0.0/16)"],
  [v4(198, 18, 0, 0), 15, "is a benchmarking address (198.18.0.0/15)"],
  [v4(198, 51, 100, 0), 24, "is a documentation address (198.51.100.0/24)"],
  [v4(203, 0, 113, 0), 24, "is a documentation address (203.0.113.0/24)"],
  [v4(224, 0, 0, 0), 4, "is a multicast address (224.0.0.0/4)"],
  [v4(255, 255, 255, 255), 32, "is the broadcast address"],
  [v4(240, 0, 0, 0), 4, "is reserved (240.0.0.0/4)"],
];

const v6 = (text: string): bigint => parseIpv6(text) ?? 0n;

// Checked in order, so a narrower block (documentation) names itself before its wider parent.
const IPV6_NOT_PUBLIC: readonly Ipv6Range[] = [
  [0n, 128, "is the unspecified address (::)"],
  [1n, 128, "is the loopback address (::1)"],
  [v6("100::"), 64, "is a discard-only address (100::/64)"],
  [v6("2001:db8::"), 32, "is a documentation address (2001:db8::/32)"],
  [v6("2001::"), 23, "is reserved for IETF protocol assignments (2001::/23)"],
  [v6("3fff::"), 20, "is a documentation address (3fff::/20)"],
  [v6("fc00::"), 7, "is a unique-local address (fc00::/7)"],
  [v6("fe80::"), 10, "is a link-local address (fe80::/10)"],
  [v6("ff00::"), 8, "is a multicast address (ff00::/8)"],
];

// Prefixes whose addresses carry an IPv4 address, judged by that address.
const IPV4_MAPPED = v6("::ffff:0:0");
const NAT64 = v6("64:ff9b::");
const SIX_TO_FOUR = v6("2002::");
const GLOBAL_UNICAST = v6("2000::");

const RESERVED_SUFFIXES = [
  "local",
  "internal",
  "localdomain",
  "home.arpa",
  "test",
  "example",
  "invalid",
  "onion",
  "alt",
] as const;
const DOTTED_SUFFIXES = RESERVED_SUFFIXES.map((suffix) => `.${suffix}`);

// Characters that cannot appear in a host name given on its own (they would end the host in a URL).
const NOT_IN_HOST = /[\s/?#@\\[\]%]/;

/**
 * Whether `hostname` names a public host: a domain name that is not local or reserved, or an IP
 * literal that is public unicast. Accepts a host as `URL.hostname` writes it (`[::1]` for IPv6) or
 * a bare IPv6 address. DNS is never consulted: a public name that resolves to a private address
 * passes.
 */
export function isPublicHost(hostname: string): boolean {
  return hostRejection(hostname) === undefined;
}

/** Why `hostname` is not a public host (a phrase to follow the host), or undefined when it is one. */
export function hostRejection(hostname: string): string | undefined {
  if (hostname.startsWith("[") || hostname.includes(":")) {
    const inner = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
    const address = parseIpv6(inner);
    return address === undefined ? "is not a valid IPv6 address" : ipv6Rejection(address);
  }
  if (hostname === "" || NOT_IN_HOST.test(hostname)) return "is not a valid host name";
  const host = toAsciiHost(hostname);
  if (host === undefined)
    return endsInNumber(hostname) ? "is not a valid IPv4 address" : "is not a valid host name";
  if (endsInNumber(host)) {
    const address = parseIpv4(host);
    return address === undefined ? "is not a valid IPv4 address" : ipv4Rejection(address);
  }
  return domainRejection(host);
}

// Maps what a browser would (case, full-width forms, IDNA to punycode); the rules then run on the
// result with this module's own parsing, so they hold whatever the URL parser made of the host.
function toAsciiHost(hostname: string): string | undefined {
  try {
    const url = new URL(`http://${hostname}/`);
    return url.host === url.hostname ? url.hostname : undefined;
  } catch {
    return undefined;
  }
}

function ipv4Rejection(address: number): string | undefined {
  for (const [network, prefix, reason] of IPV4_NOT_PUBLIC) {
    const size = 2 ** (32 - prefix);
    if (Math.floor(address / size) === Math.floor(network / size)) return reason;
  }
  return undefined;
}

function ipv6Rejection(address: bigint): string | undefined {
  const embedded = Number(address & 0xffffffffn);
  if (inPrefix(address, IPV4_MAPPED, 96)) return prefixed("IPv4-mapped", ipv4Rejection(embedded));
  if (inPrefix(address, NAT64, 96)) return prefixed("NAT64-embedded", ipv4Rejection(embedded));
  if (inPrefix(address, SIX_TO_FOUR, 16)) {
    return prefixed("6to4-embedded", ipv4Rejection(Number((address >> 80n) & 0xffffffffn)));
  }
  for (const [network, prefix, reason] of IPV6_NOT_PUBLIC) {
    if (inPrefix(address, network, prefix)) return reason;
  }
  if (!inPrefix(address, GLOBAL_UNICAST, 3)) return "is not a global unicast address (outside 2000::/3)";
  return undefined;
}

function prefixed(kind: string, reason: string | undefined): string | undefined {
  return reason === undefined ? undefined : `embeds an IPv4 address that ${reason} (${kind})`;
}

function inPrefix(address: bigint, network: bigint, prefix: number): boolean {
  const shift = BigInt(128 - prefix);
  return address >> shift === network >> shift;
}

function domainRejection(host: string): string | undefined {
  const name = host.endsWith(".") ? host.slice(0, -1) : host;
  const labels = name.split(".");
  if (labels.some((label) => label === "")) return "is not a valid host name (empty label)";
  if (name === "localhost" || name.endsWith(".localhost")) return "is a localhost name";
  if (labels.length === 1) return "is a single-label name, not a public domain";
  const index = RESERVED_SUFFIXES.findIndex(
    (s, i) => name === s || name.endsWith(DOTTED_SUFFIXES[i] as string),
  );
  if (index >= 0) return `ends in the reserved name ${DOTTED_SUFFIXES[index]}`;
  return undefined;
}
