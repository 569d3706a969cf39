// Issue "contract conformance", item 7: `sourceUrl` must name a public host (contract-decisions,
// rebuild check 4), so the service is never pointed at an internal address. Generated addresses in
// every non-public block, written in every notation a URL parser accepts (IPv4 as dotted decimal,
// one decimal, octal or hex number, dotted octal or hex, two- and three-part forms; IPv6 expanded,
// compressed, upper case, IPv4-mapped in dotted and hex form, NAT64 and 6to4 with an embedded
// address) are refused with 400; public addresses in the same notations are accepted.
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { submitRebuild } from "../http/support/client.js";
import { useMswMock } from "../http/support/harness.js";

const { world, call } = useMswMock();

beforeEach(() => {
  // Every accepted address counts toward the hour's limit, which is not under test here.
  world.upsertPartner(1001, { rateLimitPerHour: 1_000_000 });
});

/** IPv4 blocks that are not public unicast (IANA special-purpose registry; RFC 6890). */
const IPV4_NOT_PUBLIC: [string, number][] = [
  ["0.0.0.0", 8], // "this network", unspecified
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and 255.255.255.255 broadcast
];
/** Public blocks to draw controls from. */
const IPV4_PUBLIC: [string, number][] = [
  ["8.8.8.0", 24],
  ["1.1.1.0", 24],
  ["93.184.216.0", 24],
  ["151.101.0.0", 16],
];

const ipv4Number = (dotted: string) => dotted.split(".").reduce((n, octet) => n * 256 + Number(octet), 0);

const inBlock = ([network, prefix]: [string, number]) =>
  fc.integer({ min: 0, max: 2 ** (32 - prefix) - 1 }).map((offset) => ipv4Number(network) + offset);

/** One part of an IPv4 address, in any radix the WHATWG URL parser reads. */
const part = (value: number) =>
  fc
    .tuple(fc.constantFrom("dec", "oct", "hex"), fc.integer({ min: 0, max: 2 }), fc.boolean())
    .map(([radix, zeros, upper]) => {
      if (radix === "dec") return String(value);
      if (radix === "oct") return `0${"0".repeat(zeros)}${value.toString(8)}`;
      const hex = `0${upper ? "X" : "x"}${"0".repeat(zeros)}${value.toString(16)}`;
      return upper ? hex.toUpperCase() : hex;
    });

/** `address` as 1 to 4 parts, the last one holding the remaining bytes, each in some radix. */
const ipv4Notation = (address: number) =>
  fc.integer({ min: 1, max: 4 }).chain((parts) => {
    const octets = [24, 16, 8, 0].map((shift) => Math.floor(address / 2 ** shift) % 256);
    const leading = octets.slice(0, parts - 1);
    const last = address % 2 ** (8 * (5 - parts));
    return fc.tuple(...[...leading, last].map(part)).map((rendered) => rendered.join("."));
  });

/** 128-bit address as eight hex groups, compressed or not, padded or not, in either case. */
const ipv6Notation = (groups: number[]) =>
  fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()).map(([compress, pad, upper]) => {
    let text = groups.map((g) => (pad ? g.toString(16).padStart(4, "0") : g.toString(16))).join(":");
    if (compress) {
      const zeros = text.match(/(^|:)(0+(:0+)+)(:|$)/);
      if (zeros) text = text.replace(zeros[0], "::");
    }
    return upper ? text.toUpperCase() : text;
  });

const groups = (high: number[], low: number[]) => [
  ...high,
  ...Array(8 - high.length - low.length).fill(0),
  ...low,
];
const group = fc.integer({ min: 0, max: 0xffff });
const embedded = (address: number) => [Math.floor(address / 65536), address % 65536];

const ipv6NotPublic = fc.oneof(
  fc.constant(groups([], [])), // unspecified
  fc.constant(groups([], [1])), // loopback
  fc.tuple(fc.integer({ min: 0xfc00, max: 0xfdff }), group, group).map(([a, b, c]) => groups([a, b], [c])), // unique local
  fc.tuple(fc.integer({ min: 0xfe80, max: 0xfebf }), group).map(([a, b]) => groups([a], [b])), // link-local
  fc.tuple(fc.integer({ min: 0xff00, max: 0xffff }), group).map(([a, b]) => groups([a], [b])), // multicast
  fc.tuple(group, group).map(([a, b]) => groups([0x2001, 0xdb8, a], [b])), // documentation
);

/** An address the URL would carry to a non-public IPv4 one: mapped, NAT64 or 6to4. */
const ipv6EmbeddingNotPublic = fc
  .tuple(
    fc.oneof(...IPV4_NOT_PUBLIC.map(inBlock)),
    fc.constantFrom("mapped", "mapped-dotted", "nat64", "6to4"),
  )
  .chain(([v4, form]) => {
    if (form === "mapped-dotted") {
      const dotted = [24, 16, 8, 0].map((shift) => Math.floor(v4 / 2 ** shift) % 256).join(".");
      return fc.constantFrom(`::ffff:${dotted}`, `::FFFF:${dotted}`, `0:0:0:0:0:ffff:${dotted}`);
    }
    if (form === "mapped") return ipv6Notation(groups([], [0xffff, ...embedded(v4)]));
    if (form === "nat64") return ipv6Notation(groups([0x64, 0xff9b], embedded(v4)));
    return ipv6Notation(groups([0x2002, ...embedded(v4)], [1]));
  });

const url = (host: string) => fc.constantFrom(`http://${host}/`, `https://${host}:8443/path?q=1`);

async function expectRefused(sourceUrl: string): Promise<void> {
  const answer = await submitRebuild<{ errors: { path: string }[] }>(call, { sourceUrl });
  expect(answer.status, sourceUrl).toBe(400);
  expect(answer.body.errors.map((e) => e.path)).toEqual(["sourceUrl"]);
}

async function expectAccepted(sourceUrl: string): Promise<void> {
  const { status } = await submitRebuild(call, { sourceUrl });
  expect([200, 202], sourceUrl).toContain(status);
}

describe("sourceUrl refuses every non-public address, however it is written", () => {
  it("IPv4 in every non-public block, in every notation", async () => {
    const host = fc.oneof(...IPV4_NOT_PUBLIC.map(inBlock)).chain(ipv4Notation);
    await fc.assert(fc.asyncProperty(host.chain(url), expectRefused), { numRuns: 400, seed: 4 });
  });

  it("IPv6 loopback, unspecified, unique-local, link-local, multicast and documentation", async () => {
    const host = ipv6NotPublic.chain(ipv6Notation).map((text) => `[${text}]`);
    await fc.assert(fc.asyncProperty(host.chain(url), expectRefused), { numRuns: 300, seed: 6 });
  });

  it("IPv6 that embeds a non-public IPv4 address: IPv4-mapped (dotted and hex), NAT64, 6to4", async () => {
    const host = ipv6EmbeddingNotPublic.map((text) => `[${text}]`);
    await fc.assert(fc.asyncProperty(host.chain(url), expectRefused), { numRuns: 300, seed: 8 });
  });

  it("the broadcast address and the named forms", async () => {
    for (const host of [
      "255.255.255.255",
      "0xffffffff",
      "4294967295",
      "localhost",
      "LOCALHOST.",
      "app.localhost",
      "intranet",
      "printer.local",
      "x.internal",
      "a.test",
      "b.example",
      "c.invalid",
      "d.onion",
      "e.alt",
      "f.home.arpa",
    ]) {
      await expectRefused(`http://${host}/`);
    }
  });
});

describe("public addresses in the same notations are accepted", () => {
  it("IPv4", async () => {
    const host = fc.oneof(...IPV4_PUBLIC.map(inBlock)).chain(ipv4Notation);
    await fc.assert(fc.asyncProperty(host.chain(url), expectAccepted), { numRuns: 200, seed: 5 });
  });

  it("IPv6 global unicast, and IPv4-mapped public addresses", async () => {
    const global = fc
      .tuple(fc.integer({ min: 0x2400, max: 0x2a0f }), group, group)
      .map(([a, b, c]) => groups([a, b], [c]));
    const mapped = fc.oneof(...IPV4_PUBLIC.map(inBlock)).map((v4) => groups([], [0xffff, ...embedded(v4)]));
    const host = fc
      .oneof(global, mapped)
      .chain(ipv6Notation)
      .map((text) => `[${text}]`);
    await fc.assert(fc.asyncProperty(host.chain(url), expectAccepted), { numRuns: 200, seed: 7 });
  });
});
