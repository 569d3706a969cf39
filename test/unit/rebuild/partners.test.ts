import { describe, expect, it } from "vitest";
import { createClock } from "../../../mocks/domain/clock.js";
import { defaultRebuildSeed, type RebuildSeed } from "../../../mocks/domain/rebuild/index.js";
import { createMockWorld } from "../../../mocks/world.js";
import { operations } from "../../../src/generated/mock-control-validators.js";
import { codeOf, fieldErrorsOf, ORIGIN, setup, T0 } from "./fixture.js";

const brand = {
  name: "Budget Hosting",
  theme: {
    colors: { primary: "#123", accent: "#aabbccdd" },
    gradients: { hero: "linear-gradient(#000, #fff)" },
  },
  loginUrl: "https://budget.example.com/login",
  upgradeUrl: "https://budget.example.com/upgrade",
  domainPurchaseUrl: "https://budget.example.com/domains",
  serverIps: ["198.51.100.7", "2001:DB8:0:0::7"],
  customDomain: "Builder.Budget.example.com",
};

describe("seed", () => {
  it("loads the three seed partners with the origin resolved", () => {
    const { domain } = setup();
    expect(
      domain.state().partners.map((p) => [p.id, p.featureEnabled, p.webhookUrl, p.webhookApiKey]),
    ).toEqual([
      [1001, true, `${ORIGIN}/__mock/webhook-sink/1001`, "mock-webhook-key-1001"],
      [1002, false, `${ORIGIN}/__mock/webhook-sink/1002`, "mock-webhook-key-1002"],
      [1003, true, null, null],
    ]);
    expect(domain.state().partners.every((p) => p.region === "eu" && p.rateLimitPerHour === 30)).toBe(true);
  });

  it("is plain JSON", () => {
    expect(JSON.parse(JSON.stringify(defaultRebuildSeed))).toEqual(defaultRebuildSeed);
  });

  // A world from a seed the types would refuse, as a hand-written seed file can be.
  const make = (seed: unknown) => () =>
    createMockWorld({ clock: createClock({ frozenAt: T0 }), seed: { rebuild: seed as RebuildSeed } });

  it("refuses an invalid seed with a message naming the entry", () => {
    expect(make({ partners: [{ id: 1, apiKey: "same", webhookApiKey: "same" }] })).toThrow(
      /rebuild\.partners\.0\.webhookApiKey: must differ/,
    );
    expect(make({ partners: [{ id: 1 }, { id: 1 }] })).toThrow(
      /rebuild\.partners\.1\.id: must not repeat partner id 1 \(first at rebuild\.partners\.0\.id\)/,
    );
    expect(make({ partners: [{ id: 0 }] })).toThrow(/rebuild\.partners\.0\.id: must be at least 1/);
  });

  it.each<[string, unknown, string]>([
    ["a seed that is not an object", [], "rebuild: must be an object"],
    ["a partner list that is not a list", { partners: { id: 1 } }, "rebuild.partners: must be an array"],
    ["an unknown seed field", { partners: [], partner: [] }, "rebuild.partner: is not a known field"],
    [
      "a partner that is not an object",
      { partners: [{ id: 1 }, null] },
      "rebuild.partners.1: must be an object",
    ],
  ])("refuses %s with a message naming it", (_, seed, message) => {
    expect(make(seed)).toThrow(new Error(`Invalid seed: ${message}`));
  });

  it("comes back on reset, with everything else cleared", async () => {
    const { clock, domain, partner } = setup();
    domain.upsertPartner(1001, { apiKey: "changed" });
    domain.upsertPartner(2001, {});
    domain.submit(partner, { sourceUrl: "https://example.com/" });
    domain.admit(partner);
    await clock.advance(5000);
    domain.reset();
    const snapshot = domain.state();
    expect(snapshot.partners.map((p) => p.id)).toEqual([1001, 1002, 1003]);
    expect(snapshot.partners[0]?.apiKey).toBe("mock-rebuild-key-1001");
    expect([snapshot.rebuilds, snapshot.projects, snapshot.deliveries, snapshot.sink]).toEqual([
      [],
      [],
      [],
      {},
    ]);
    expect(domain.rateLimitState(partner).remaining).toBe(30);
  });
});

describe("upsertPartner", () => {
  it("creates a partner with the documented defaults", () => {
    const { domain } = setup();
    const created = domain.upsertPartner("2001", undefined);
    expect(created).toEqual({
      id: 2001,
      featureEnabled: true,
      apiKey: expect.stringMatching(/^.{32,}$/),
      webhookUrl: `${ORIGIN}/__mock/webhook-sink/2001`,
      webhookApiKey: expect.stringMatching(/^.{32,}$/),
      region: "eu",
      rateLimitPerHour: 30,
      brands: [],
    });
    expect(created.apiKey).not.toBe(created.webhookApiKey);
    expect(domain.upsertPartner(2002, {}).apiKey).not.toBe(created.apiKey);
  });

  it("lets a created partner submit and receive its callback in its sink", async () => {
    const { clock, domain, posts } = setup();
    const { apiKey, webhookApiKey } = domain.upsertPartner(2001, {});
    const partner = domain.authenticate("2001", apiKey);
    domain.requireFeature(partner);
    domain.admit(partner);
    domain.submit(partner, { sourceUrl: "https://example.com/" });
    await clock.advance(5000);
    expect(posts[0]?.url).toBe(`${ORIGIN}/__mock/webhook-sink/2001`);
    expect(posts[0]?.headers["x-api-key"]).toBe(webhookApiKey);
  });

  it("changes only the fields given and returns the full settings", () => {
    const { domain } = setup();
    const updated = domain.upsertPartner(1001, {
      region: "us-east",
      rateLimitPerHour: 5,
      webhookUrl: "{origin}/custom",
      brands: [brand],
    });
    expect(updated).toMatchObject({
      id: 1001,
      apiKey: "mock-rebuild-key-1001",
      webhookApiKey: "mock-webhook-key-1001",
      featureEnabled: true,
      region: "us-east",
      rateLimitPerHour: 5,
      webhookUrl: `${ORIGIN}/custom`,
    });
    expect(updated.brands).toEqual([
      { ...brand, serverIps: ["198.51.100.7", "2001:db8::7"], customDomain: "builder.budget.example.com" },
    ]);
  });

  it.each([0, -1, 1.5, "02001", "1e3", "abc", null])(
    "answers NOT_FOUND for partner id %j: no partner can have it",
    (id) => {
      const { domain } = setup();
      expect(codeOf(() => domain.upsertPartner(id, {}))).toBe("NOT_FOUND");
    },
  );

  it.each([
    ["a non-object body", [], ["invalid_type@"]],
    ["an unknown field", { webhookSecret: "x" }, ["unknown_field@webhookSecret"]],
    ["a non-boolean flag", { featureEnabled: "yes" }, ["invalid_type@featureEnabled"]],
    ["a null rebuild key", { apiKey: null }, ["invalid_type@apiKey"]],
    ["an empty key", { apiKey: "" }, ["too_small@apiKey"]],
    ["a key with spaces", { webhookApiKey: "a b" }, ["invalid_format@webhookApiKey"]],
    ["a too long key", { apiKey: "k".repeat(257) }, ["too_big@apiKey"]],
    ["a relative webhook URL", { webhookUrl: "/hook" }, ["invalid_format@webhookUrl"]],
    ["an ftp webhook URL", { webhookUrl: "ftp://example.com/" }, ["invalid_format@webhookUrl"]],
    ["a numeric webhook URL", { webhookUrl: 5 }, ["invalid_type@webhookUrl"]],
    // `{origin}/…` stands for a URL that must itself be an HttpUrl (format: iri, at most 2048 characters).
    ["a malformed escape after {origin}", { webhookUrl: "{origin}/a%zz" }, ["invalid_format@webhookUrl"]],
    ["two fragments after {origin}", { webhookUrl: "{origin}/a#b#c" }, ["invalid_format@webhookUrl"]],
    ["brackets after {origin}", { webhookUrl: "{origin}/a[1]" }, ["invalid_format@webhookUrl"]],
    [
      "{origin}/… too long once the origin stands in",
      { webhookUrl: `{origin}/${"a".repeat(2030)}` },
      ["too_big@webhookUrl"],
    ],
    ["an upper-case region", { region: "EU" }, ["invalid_format@region"]],
    ["a zero limit", { rateLimitPerHour: 0 }, ["too_small@rateLimitPerHour"]],
    ["a fractional limit", { rateLimitPerHour: 1.5 }, ["invalid_type@rateLimitPerHour"]],
    ["a string limit", { rateLimitPerHour: "30" }, ["invalid_type@rateLimitPerHour"]],
    ["a huge limit", { rateLimitPerHour: 1e9 }, ["too_big@rateLimitPerHour"]],
    ["the webhook key as rebuild key", { apiKey: "mock-webhook-key-1001" }, ["invalid_value@apiKey"]],
    [
      "the rebuild key as webhook key",
      { webhookApiKey: "mock-rebuild-key-1001" },
      ["invalid_value@webhookApiKey"],
    ],
    [
      "several problems",
      { featureEnabled: 1, region: 2, extra: 3 },
      ["invalid_type@featureEnabled", "invalid_type@region", "unknown_field@extra"],
    ],
  ])("rejects %s and changes nothing", (_, patch, expected) => {
    const { domain } = setup();
    const before = domain.state();
    expect(fieldErrorsOf(() => domain.upsertPartner(1001, patch))).toEqual(expected);
    expect(domain.state()).toEqual(before);
  });

  it.each(["{origin}/a%zz", "{origin}/a%2", "{origin}/a#b#c", "{origin}/a[1]", "{origin}/a]"])(
    "the contract's {origin} pattern itself refuses %s (not only the resolved URL's check)",
    (webhookUrl) => {
      const validate = operations.upsertPartner.body?.validate;
      expect(validate?.({ webhookUrl })).toBe(false);
      expect(validate?.({ webhookUrl: "{origin}/a%2F?q=1#top" })).toBe(true);
    },
  );

  it("takes {origin}/… with escapes, a query and one fragment, as the URL it stands for", () => {
    const { domain } = setup();
    expect(domain.upsertPartner(1001, { webhookUrl: "{origin}/hook%20one?a=1#top" }).webhookUrl).toBe(
      `${ORIGIN}/hook%20one?a=1#top`,
    );
  });

  it("allows clearing the webhook", () => {
    const { domain } = setup();
    expect(domain.upsertPartner(1001, { webhookUrl: null, webhookApiKey: null })).toMatchObject({
      webhookUrl: null,
      webhookApiKey: null,
    });
  });

  it.each([
    ["not an array", { brands: {} }, ["invalid_type@brands"]],
    ["an unknown brand field", { brands: [{ ...brand, logo: "x" }] }, ["unknown_field@brands.0.logo"]],
    ["a missing URL", { brands: [{ ...brand, loginUrl: undefined }] }, ["required@brands.0.loginUrl"]],
    ["a bad URL", { brands: [{ ...brand, upgradeUrl: "upgrade" }] }, ["invalid_format@brands.0.upgradeUrl"]],
    ["a blank name", { brands: [{ ...brand, name: " " }] }, ["invalid_format@brands.0.name"]],
    ["an empty name", { brands: [{ ...brand, name: "" }] }, ["too_small@brands.0.name"]],
    [
      "a bad colour",
      { brands: [{ ...brand, theme: { colors: { primary: "blue" } } }] },
      ["invalid_format@brands.0.theme.colors.primary"],
    ],
    [
      "an unknown theme field",
      { brands: [{ ...brand, theme: { fonts: {} } }] },
      ["unknown_field@brands.0.theme.fonts"],
    ],
    [
      "a bad server IP",
      { brands: [{ ...brand, serverIps: ["300.1.1.1"] }] },
      ["invalid_format@brands.0.serverIps.0"],
    ],
    [
      "an IP twice in one brand",
      { brands: [{ ...brand, serverIps: ["192.0.2.1", "::ffff:192.0.2.1"] }] },
      ["duplicate@brands.0.serverIps.1"],
    ],
    [
      "an IP in two brands",
      { brands: [brand, { ...brand, name: "Other", serverIps: ["2001:db8::7"] }] },
      ["duplicate@brands.1.serverIps.0"],
    ],
    [
      "a bad custom domain",
      { brands: [{ ...brand, customDomain: "-bad-.example" }] },
      ["invalid_format@brands.0.customDomain"],
    ],
  ])("rejects brands with %s", (_, patch, expected) => {
    const { domain } = setup();
    expect(fieldErrorsOf(() => domain.upsertPartner(1001, JSON.parse(JSON.stringify(patch))))).toEqual(
      expected,
    );
  });
});

describe("rotateKey", () => {
  it("answers NOT_FOUND for an unknown or impossible partner id", () => {
    const { domain } = setup();
    for (const id of [9999, "9999", "abc", "01001", 0])
      expect(codeOf(() => domain.rotateKey(id))).toBe("NOT_FOUND");
  });

  it("never hands out the webhook key or the previous key", () => {
    const { domain } = setup();
    const keys = new Set<string>();
    for (let i = 0; i < 20; i++) keys.add(domain.rotateKey("1001").apiKey);
    expect(keys.size).toBe(20);
    expect(keys.has("mock-webhook-key-1001")).toBe(false);
  });
});

describe("the brand a customer's server IP selects (opening a magic link)", () => {
  const brandOf = (domain: ReturnType<typeof setup>["domain"], partnerId: number, serverIp: string) =>
    domain.openMagicLink({ partnerId, promptToken: "not-a-token", customerId: "c", serverIp }).brand;

  it("finds the brand by any spelling of a configured IP", () => {
    const { domain } = setup();
    domain.upsertPartner(1001, { brands: [brand] });
    for (const ip of [
      "198.51.100.7",
      "::ffff:198.51.100.7",
      "::ffff:c633:6407",
      "2001:db8::7",
      "2001:0DB8:0:0:0:0:0:7",
    ]) {
      expect(brandOf(domain, 1001, ip)?.name).toBe("Budget Hosting");
    }
  });

  it("answers null for an IP of no brand, a partner without brands and an unknown partner; 400 for what is not an IP", () => {
    const { domain } = setup();
    expect(brandOf(domain, 1001, "203.0.113.10")?.name).toBe("Example Hosting");
    expect(brandOf(domain, 1001, "203.0.113.11")).toBeNull();
    expect(brandOf(domain, 1003, "203.0.113.10")).toBeNull();
    expect(brandOf(domain, 9999, "203.0.113.10")).toBeNull();
    for (const ip of ["0xcb.0.113.10", "[::1]", "203.0.113.010", "host.example.com"]) {
      expect(fieldErrorsOf(() => brandOf(domain, 1001, ip))).toEqual(["invalid_format@serverIp"]);
    }
  });
});
