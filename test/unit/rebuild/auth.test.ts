import { describe, expect, it } from "vitest";
import { codeOf, setup, thrownSync } from "./fixture.js";

describe("authenticate", () => {
  it("accepts the partner id and the partner's current rebuild key", () => {
    const { domain } = setup();
    expect(domain.authenticate("1001", "mock-rebuild-key-1001")).toEqual({ id: 1001 });
    expect(domain.authenticate("1002", "mock-rebuild-key-1002")).toEqual({ id: 1002 });
  });

  it.each([
    ["missing", null],
    ["empty", ""],
    ["leading zero", "01001"],
    ["zero", "0"],
    ["signed", "+1001"],
    ["negative", "-1001"],
    ["decimal point", "1001.0"],
    ["exponent", "1e3"],
    ["hex", "0x3e9"],
    ["spaces", " 1001"],
    ["letters", "abc"],
    ["full-width digits", "１００１"],
    ["unknown partner", "9999"],
    ["beyond safe integers", "90071992547409931001"],
  ])("rejects an X-Partner-Id that is %s", (_, header) => {
    const { domain } = setup();
    expect(codeOf(() => domain.authenticate(header, "mock-rebuild-key-1001"))).toBe("UNAUTHORIZED");
  });

  it.each([
    ["missing", null],
    ["empty", ""],
    ["wrong", "mock-rebuild-key-100"],
    ["longer", "mock-rebuild-key-10011"],
    ["in another case", "MOCK-REBUILD-KEY-1001"],
    ["the partner's webhook key", "mock-webhook-key-1001"],
    ["another partner's rebuild key", "mock-rebuild-key-1003"],
  ])("rejects an X-API-Key that is %s", (_, key) => {
    const { domain } = setup();
    expect(codeOf(() => domain.authenticate("1001", key))).toBe("UNAUTHORIZED");
  });

  it("gives the same answer for an unknown partner and a wrong key", () => {
    const { domain } = setup();
    const unknown = thrownSync(() => domain.authenticate("9999", "mock-rebuild-key-1001"));
    const wrongKey = thrownSync(() => domain.authenticate("1001", "nope"));
    expect(unknown.message).toBe(wrongKey.message);
  });

  it("stops accepting a rotated key at once and accepts the new one", () => {
    const { domain } = setup();
    const { apiKey } = domain.rotateKey(1001);
    expect(apiKey.length).toBeGreaterThanOrEqual(32);
    expect(codeOf(() => domain.authenticate("1001", "mock-rebuild-key-1001"))).toBe("UNAUTHORIZED");
    expect(domain.authenticate("1001", apiKey)).toEqual({ id: 1001 });
  });

  it("stops accepting a key replaced through the console settings", () => {
    const { domain } = setup();
    domain.upsertPartner(1001, { apiKey: "replacement-key" });
    expect(codeOf(() => domain.authenticate("1001", "mock-rebuild-key-1001"))).toBe("UNAUTHORIZED");
    expect(domain.authenticate("1001", "replacement-key")).toEqual({ id: 1001 });
  });
});

describe("requireFeature", () => {
  it("lets a partner with the feature through", () => {
    const { domain, partner } = setup();
    expect(() => domain.requireFeature(partner)).not.toThrow();
  });

  it("rejects a partner without the feature after authenticating it", () => {
    const { domain } = setup();
    const partner = domain.authenticate("1002", "mock-rebuild-key-1002");
    expect(codeOf(() => domain.requireFeature(partner))).toBe("FEATURE_NOT_ENABLED");
  });

  it("follows the flag as it changes", () => {
    const { domain } = setup();
    const partner = domain.authenticate("1002", "mock-rebuild-key-1002");
    domain.upsertPartner("1002", { featureEnabled: true });
    expect(() => domain.requireFeature(partner)).not.toThrow();
    domain.upsertPartner(1002, { featureEnabled: false });
    expect(codeOf(() => domain.requireFeature(partner))).toBe("FEATURE_NOT_ENABLED");
  });

  it("no longer knows a partner that a reset removed", () => {
    const { domain } = setup();
    domain.upsertPartner(2001, {});
    const partner = { id: 2001 };
    domain.reset();
    expect(codeOf(() => domain.requireFeature(partner))).toBe("UNAUTHORIZED");
  });
});
