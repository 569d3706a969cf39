import { BlockList } from "node:net";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hostRejection, isPublicHost } from "../../../mocks/domain/rebuild/public-host.js";
import { setup } from "./fixture.js";

// An independent oracle: node's BlockList with the contract's ranges.
const V4_BLOCKED: Array<[string, number]> = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
  ["255.255.255.255", 32],
];
const V6_BLOCKED: Array<[string, number]> = [
  ["::", 128],
  ["::1", 128],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["3fff::", 20],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
];
const v4List = new BlockList();
for (const [net, prefix] of V4_BLOCKED) v4List.addSubnet(net, prefix, "ipv4");
const v6List = new BlockList();
for (const [net, prefix] of V6_BLOCKED) v6List.addSubnet(net, prefix, "ipv6");

const dotted = (a: number) => [a >>> 24, (a >>> 16) & 255, (a >>> 8) & 255, a & 255].join(".");
const publicV4 = (a: number) => !v4List.check(dotted(a), "ipv4");
const publicV6 = (g: number[]): boolean => {
  const at = (i: number) => g[i] ?? 0;
  const low32 = at(6) * 0x10000 + at(7);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && at(5) === 0xffff) return publicV4(low32);
  if (at(0) === 0x64 && at(1) === 0xff9b && zeros(2, 6)) return publicV4(low32);
  if (at(0) === 0x2002) return publicV4(at(1) * 0x10000 + at(2));
  if (v6List.check(g.map((x) => x.toString(16)).join(":"), "ipv6")) return false;
  return (at(0) & 0xe000) === 0x2000;
};

const octet = fc.nat(255);
const ipv4 = fc.oneof(
  fc.nat(0xffffffff),
  fc
    .tuple(fc.constantFrom(0, 10, 100, 127, 169, 172, 192, 198, 203, 224, 239, 240, 255), octet, octet, octet)
    .map(([a, b, c, d]) => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0),
  fc.constantFrom(0xffffffff, 0x7f000001, 0x64400000, 0xc0000200, 0xc6120000),
);
const group = fc.nat(0xffff);
const ipv6 = fc
  .tuple(
    fc.constantFrom<number[]>(
      [],
      [0, 0, 0, 0, 0, 0xffff],
      [0x64, 0xff9b, 0, 0, 0, 0],
      [0x2002],
      [0x2001],
      [0x2001, 0xdb8],
      [0x3fff],
      [0x100, 0, 0, 0],
      [0xfd00],
      [0xfe80],
      [0xff02],
      [0x2400],
      [0],
    ),
    fc.array(group, { minLength: 8, maxLength: 8 }),
  )
  .map(([prefix, rest]) => [...prefix, ...rest].slice(0, 8));

describe("isPublicHost", () => {
  it.each([
    "example.com",
    "www.example.com",
    "example.com.",
    "EXAMPLE.COM",
    "sub.example.co.uk",
    "localhost.example.com",
    "test.example.com",
    "xn--nxasmq6b.com",
    "bücher.de",
    "8.8.8.8",
    "1.1.1.1",
    "11.0.0.1",
    "100.63.255.255",
    "100.128.0.0",
    "126.255.255.255",
    "128.0.0.1",
    "169.253.255.255",
    "172.15.255.255",
    "172.32.0.0",
    "192.0.1.255",
    "192.0.3.0",
    "192.167.255.255",
    "192.169.0.0",
    "198.17.255.255",
    "198.20.0.0",
    "223.255.255.255",
    "[2606:4700:4700::1111]",
    "2606:4700:4700::1111",
    "[2a00:1450:4001:80b::200e]",
    "[::ffff:8.8.8.8]",
    "[64:ff9b::8.8.8.8]",
    "[2002:808:808::1]",
    "[2001:200::1]",
  ])("%s is public", (host) => {
    expect(hostRejection(host)).toBeUndefined();
  });

  it.each([
    ["localhost", "localhost"],
    ["LOCALHOST", "localhost"],
    ["localhost.", "localhost"],
    ["api.localhost", "localhost"],
    ["ｌｏｃａｌｈｏｓｔ", "localhost"],
    ["intranet", "single-label"],
    ["com", "single-label"],
    ["printer.local", ".local"],
    ["svc.internal", ".internal"],
    ["box.localdomain", ".localdomain"],
    ["router.home.arpa", ".home.arpa"],
    ["home.arpa", ".home.arpa"],
    ["shop.test", ".test"],
    ["www.example", ".example"],
    ["x.invalid", ".invalid"],
    ["hidden.onion", ".onion"],
    ["name.alt", ".alt"],
    ["", "not a valid"],
    ["a..b.com", "empty label"],
    [".example.com", "empty label"],
    ["exa mple.com", "not a valid"],
    ["evil.com@127.0.0.1", "not a valid"],
    ["example.com/path", "not a valid"],
    ["example.com:80", "IPv6"],
    ["1.2.3.999", "not a valid IPv4"],
    ["foo.0x10", "not a valid IPv4"],
    ["0.0.0.0", "this network"],
    ["0", "this network"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["2130706433", "loopback"],
    ["0177.0.0.1", "loopback"],
    ["0x7f.1", "loopback"],
    ["0x7f000001", "loopback"],
    ["0x7F.0.0.1", "loopback"],
    ["127.1", "loopback"],
    ["127.0.1", "loopback"],
    ["127.0.0.1.", "loopback"],
    ["10.0.0.1", "private"],
    ["012.1.2.3", "private"],
    ["167772161", "private"],
    ["100.64.0.1", "CGNAT"],
    ["169.254.169.254", "link-local"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.0.0.8", "IETF"],
    ["192.0.2.1", "documentation"],
    ["192.88.99.1", "6to4 relay"],
    ["192.168.1.1", "private"],
    ["0xc0a80101", "private"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.255", "benchmarking"],
    ["198.51.100.1", "documentation"],
    ["203.0.113.5", "documentation"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["4294967295", "broadcast"],
    ["[::]", "unspecified"],
    ["::", "unspecified"],
    ["[::1]", "loopback"],
    ["[0:0:0:0:0:0:0:1]", "loopback"],
    ["[::ffff:127.0.0.1]", "IPv4-mapped"],
    ["[::ffff:7f00:1]", "IPv4-mapped"],
    ["[::ffff:10.0.0.1]", "IPv4-mapped"],
    ["[::ffff:c0a8:101]", "IPv4-mapped"],
    ["[64:ff9b::127.0.0.1]", "NAT64"],
    ["[64:ff9b::a00:1]", "NAT64"],
    ["[64:ff9b:1::1]", "2000::/3"],
    ["[100::1]", "discard"],
    ["[2001::1]", "IETF"],
    ["[2001:10::1]", "IETF"],
    ["[2001:1ff::1]", "IETF"],
    ["[2001:db8::1]", "documentation"],
    ["[2001:DB8:85A3::8A2E:370:7334]", "documentation"],
    ["[3fff::1]", "documentation"],
    ["[fc00::1]", "unique-local"],
    ["[fd12:3456:789a::1]", "unique-local"],
    ["[fe80::1]", "link-local"],
    ["[febf::1]", "link-local"],
    ["[fec0::1]", "2000::/3"],
    ["[ff02::1]", "multicast"],
    ["[2002:7f00:1::1]", "6to4"],
    ["[2002:c0a8:101::1]", "6to4"],
    ["[::127.0.0.1]", "2000::/3"],
    ["[::8.8.8.8]", "2000::/3"],
    ["[4000::1]", "2000::/3"],
    ["[1::1]", "2000::/3"],
    ["[::1%25eth0]", "IPv6"],
    ["[::1]:80", "IPv6"],
    ["[1:2:3:4:5:6:7:8:9]", "IPv6"],
    ["[::ffff:127.0.0.01]", "IPv6"],
    ["[1::2::3]", "IPv6"],
  ])("%s is not public (%s)", (host, why) => {
    expect(isPublicHost(host)).toBe(false);
    expect(hostRejection(host)).toContain(why);
  });

  it("judges every IPv4 address by the contract's ranges, in every notation", () => {
    fc.assert(
      fc.property(ipv4, (a) => {
        const expected = publicV4(a);
        const forms = [
          dotted(a),
          String(a),
          `0x${a.toString(16)}`,
          dotted(a)
            .split(".")
            .map((part) => `0${Number(part).toString(8)}`)
            .join("."),
          `${a >>> 24}.${a & 0xffffff}`,
          `0x${(a >>> 24).toString(16)}.${(a >>> 16) & 255}.0${((a & 0xffff) >>> 0).toString(8)}`,
        ];
        for (const form of forms) expect([form, isPublicHost(form)]).toEqual([form, expected]);
        expect(isPublicHost(`[::ffff:${dotted(a)}]`)).toBe(expected);
        expect(isPublicHost(`[64:ff9b::${dotted(a)}]`)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it("judges every IPv6 address by the contract's ranges, written in full or compressed", () => {
    fc.assert(
      fc.property(ipv6, (groups) => {
        const full = groups.map((g) => g.toString(16)).join(":");
        const compressed = new URL(`http://[${full}]/`).hostname;
        const expected = publicV6(groups);
        expect([full, isPublicHost(`[${full}]`)]).toEqual([full, expected]);
        expect([compressed, isPublicHost(compressed)]).toEqual([compressed, expected]);
        expect(isPublicHost(full.toUpperCase())).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it("agrees with submission: a URL is accepted exactly when its host is public", () => {
    const { domain, partner } = setup();
    domain.upsertPartner(1001, { rateLimitPerHour: 1_000_000 });
    fc.assert(
      fc.property(ipv4, (a) => {
        const hosts = [String(a), `0x${a.toString(16)}`, `[::ffff:${dotted(a)}]`];
        for (const host of hosts) {
          let accepted = true;
          try {
            domain.submit(partner, { sourceUrl: `http://${host}/` });
          } catch {
            accepted = false;
          }
          expect([host, accepted]).toEqual([host, publicV4(a)]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("treats a domain as public unless it is local or under a reserved name", () => {
    fc.assert(
      fc.property(fc.domain(), (domain) => {
        const name = domain.toLowerCase();
        const reserved =
          /(^|\.)(localhost|local|internal|localdomain|home\.arpa|test|example|invalid|onion|alt)$/;
        expect(isPublicHost(domain)).toBe(name.includes(".") && !reserved.test(name));
      }),
      { numRuns: 1000 },
    );
  });
});
