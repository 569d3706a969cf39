import { describe, expect, it } from "vitest";
import { fieldErrorsOf, setup, thrownSync } from "./fixture.js";

const longUrl = (codePoints: number, filler = "a") => {
  const base = "https://example.com/";
  return base + filler.repeat(codePoints - base.length);
};

describe("submission body validation", () => {
  it.each([
    ["an empty body", undefined, ["required@"]],
    ["null", null, ["invalid_type@"]],
    ["an array", [{ sourceUrl: "https://example.com/" }], ["invalid_type@"]],
    ["a string", "https://example.com/", ["invalid_type@"]],
    ["a number", 42, ["invalid_type@"]],
    ["a boolean", true, ["invalid_type@"]],
  ])("answers one root error for %s", (_, body, expected) => {
    const { domain, partner } = setup();
    expect(fieldErrorsOf(() => domain.submit(partner, body))).toEqual(expected);
  });

  it.each([
    ["missing", {}, "required"],
    ["a number", { sourceUrl: 5 }, "invalid_type"],
    ["null", { sourceUrl: null }, "invalid_type"],
    ["an object", { sourceUrl: { href: "https://example.com/" } }, "invalid_type"],
    ["empty", { sourceUrl: "" }, "invalid_format"],
    ["not a URL", { sourceUrl: "not a url" }, "invalid_format"],
    ["without scheme", { sourceUrl: "example.com" }, "invalid_format"],
    ["relative", { sourceUrl: "/about" }, "invalid_format"],
    ["protocol-relative", { sourceUrl: "//example.com/" }, "invalid_format"],
    ["without slashes", { sourceUrl: "http:example.com" }, "invalid_format"],
    ["with backslashes", { sourceUrl: "http:\\\\example.com\\" }, "invalid_format"],
    ["with a leading space", { sourceUrl: " https://example.com/" }, "invalid_format"],
    ["with a tab", { sourceUrl: "https://exa\tmple.com/" }, "invalid_format"],
    ["with a newline", { sourceUrl: "https://example.com/\n" }, "invalid_format"],
    ["with a space in the path", { sourceUrl: "https://example.com/a b" }, "invalid_format"],
    ["with an invalid IPv4", { sourceUrl: "http://1.2.3.999/" }, "invalid_format"],
    ["ftp", { sourceUrl: "ftp://example.com/" }, "invalid_format"],
    ["file", { sourceUrl: "file:///etc/passwd" }, "invalid_format"],
    ["javascript", { sourceUrl: "javascript:alert(1)" }, "invalid_format"],
    ["mailto", { sourceUrl: "mailto:someone@example.com" }, "invalid_format"],
    ["with a user", { sourceUrl: "https://user@example.com/" }, "invalid_format"],
    ["with a user and password", { sourceUrl: "https://user:pw@example.com/" }, "invalid_format"],
    ["with an empty password", { sourceUrl: "https://:pw@example.com/" }, "invalid_format"],
    ["of localhost", { sourceUrl: "http://localhost:3000/" }, "invalid_value"],
    ["of a private IP", { sourceUrl: "http://192.168.1.10/" }, "invalid_value"],
    ["of a reserved name", { sourceUrl: "https://shop.test/" }, "invalid_value"],
    ["2,049 characters", { sourceUrl: longUrl(2049) }, "too_big"],
  ])("rejects a sourceUrl that is %s", (_, body, type) => {
    const { domain, partner } = setup();
    expect(fieldErrorsOf(() => domain.submit(partner, body))).toEqual([`${type}@sourceUrl`]);
  });

  it("says why a host is not public", () => {
    const { domain, partner } = setup();
    const error = thrownSync(() => domain.submit(partner, { sourceUrl: "http://0x7f.1/" }));
    expect(error.details.fieldErrors?.[0]?.message).toMatch(/127\.0\.0\.1 is a loopback address/);
  });

  it.each([
    ["decimal", "http://2130706433/"],
    ["octal", "http://0177.0.0.1/"],
    ["hex", "http://0x7f.1/"],
    ["hex, one part", "http://0x7f000001/"],
    ["short form", "http://127.1/"],
    ["IPv4-mapped IPv6", "http://[::ffff:127.0.0.1]/"],
    ["IPv4-mapped IPv6 in hex", "http://[::ffff:7f00:1]/"],
    ["IPv6 loopback", "http://[::1]/"],
    ["full-width localhost", "http://ｌｏｃａｌｈｏｓｔ/"],
    ["upper-case localhost", "http://LOCALHOST./"],
    ["metadata service", "http://169.254.169.254/latest/meta-data"],
  ])("rejects a non-public host written in %s notation", (_, sourceUrl) => {
    const { domain, partner } = setup();
    expect(fieldErrorsOf(() => domain.submit(partner, { sourceUrl }))).toEqual(["invalid_value@sourceUrl"]);
  });

  it("refuses percent escapes in a host by the pattern, whatever they spell (decisions/041)", () => {
    const { domain, partner } = setup();
    for (const sourceUrl of ["http://%31%32%37.0.0.1/", "https://ex%61mple.com/"]) {
      expect(fieldErrorsOf(() => domain.submit(partner, { sourceUrl }))).toEqual([
        "invalid_format@sourceUrl",
      ]);
    }
  });

  it.each([
    "https://example.com",
    "http://www.example.com/path?q=1#top",
    "HTTPS://EXAMPLE.COM:8443/a",
    "https://8.8.8.8/",
    "https://[2606:4700:4700::1111]/",
    "https://xn--nxasmq6b.com/",
    "https://bücher.example.com/",
  ])("accepts %s", (sourceUrl) => {
    const { domain, partner } = setup();
    expect(domain.submit(partner, { sourceUrl }).created).toBe(true);
  });

  it("counts the 2,048 characters in code points", () => {
    const { domain, partner } = setup();
    expect(domain.submit(partner, { sourceUrl: longUrl(2048) }).created).toBe(true);
    // 2,048 code points are 4,000-odd UTF-16 units when astral.
    expect(domain.submit(partner, { sourceUrl: longUrl(2048, "😀") }).created).toBe(true);
    expect(fieldErrorsOf(() => domain.submit(partner, { sourceUrl: longUrl(2049, "😀") }))).toEqual([
      "too_big@sourceUrl",
    ]);
  });

  it.each([
    ["null", null, "invalid_type"],
    ["a number", 5, "invalid_type"],
    ["an array", ["modern"], "invalid_type"],
    ["10,001 characters", "x".repeat(10_001), "too_big"],
    ["10,001 astral characters", "😀".repeat(10_001), "too_big"],
  ])("rejects a prompt that is %s", (_, prompt, type) => {
    const { domain, partner } = setup();
    expect(
      fieldErrorsOf(() => domain.submit(partner, { sourceUrl: "https://example.com/", prompt })),
    ).toEqual([`${type}@prompt`]);
  });

  it("accepts an empty prompt and one of 10,000 characters", () => {
    const { domain, partner } = setup();
    domain.submit(partner, { sourceUrl: "https://a.example.com/", prompt: "" });
    domain.submit(partner, { sourceUrl: "https://b.example.com/", prompt: "😀".repeat(10_000) });
    expect(domain.rebuilds().map((r) => r.prompt?.length)).toEqual([0, 20_000]);
  });

  it("rejects unknown fields", () => {
    const { domain, partner } = setup();
    const body = { sourceUrl: "https://example.com/", source_url: "x", __proto__: null, callbackUrl: "y" };
    expect(fieldErrorsOf(() => domain.submit(partner, JSON.parse(JSON.stringify(body))))).toEqual([
      "unknown_field@source_url",
      "unknown_field@callbackUrl",
    ]);
  });

  it("collects every field error at once", () => {
    const { domain, partner } = setup();
    expect(fieldErrorsOf(() => domain.submit(partner, { sourceUrl: 1, prompt: null, extra: true }))).toEqual([
      "unknown_field@extra",
      "invalid_type@sourceUrl",
      "invalid_type@prompt",
    ]);
  });

  it("validates before checking webhooks, then requires them", () => {
    const { domain } = setup();
    const partner = domain.authenticate("1003", "mock-rebuild-key-1003");
    expect(thrownSync(() => domain.submit(partner, {})).code).toBe("VALIDATION_FAILED");
    expect(thrownSync(() => domain.submit(partner, { sourceUrl: "https://example.com/" })).code).toBe(
      "WEBHOOKS_NOT_CONFIGURED",
    );
  });

  it.each([
    ["no webhook URL", { webhookUrl: null }],
    ["no webhook key", { webhookApiKey: null }],
  ])("requires webhooks: %s", (_, patch) => {
    const { domain, partner } = setup();
    domain.upsertPartner(1001, patch);
    expect(thrownSync(() => domain.submit(partner, { sourceUrl: "https://example.com/" })).code).toBe(
      "WEBHOOKS_NOT_CONFIGURED",
    );
  });

  it("creates nothing when it rejects", () => {
    const { domain, partner } = setup();
    domain.upsertPartner(1001, { webhookUrl: null });
    thrownSync(() => domain.submit(partner, { sourceUrl: "https://example.com/" }));
    thrownSync(() => domain.submit(partner, { sourceUrl: "http://localhost/" }));
    expect(domain.rebuilds()).toEqual([]);
    expect(domain.projects()).toEqual([]);
  });
});
