import { describe, expect, it } from "vitest";
import { PromptTokenError, parsePromptToken } from "../../../src/prompt-token.js";
import { codeOf, fieldErrorsOf, promptTokenFor, setup } from "./fixture.js";

async function withSuccess() {
  const fixture = setup();
  const { rebuild } = fixture.domain.submit(fixture.partner, { sourceUrl: "https://example.com/" });
  await fixture.clock.advance(5000);
  return { ...fixture, rebuild };
}

describe("promptToken decoding (the SDK's decoder, which the mock uses)", () => {
  it.each([
    ["cmVidWlsZElkPWE/Pn4=", "a?>~"],
    ["cmVidWlsZElkPX5+fn4=", "~~~~"],
    ["cmVidWlsZElkPX5%2Bfn4%3D", "~~~~"],
    ["cmVidWlsZElkPX5%2bfn4%3d", "~~~~"],
    [Buffer.from("rebuildId=projet-é-😀").toString("base64"), "projet-é-😀"],
  ])("reads %s as %s", (token, projectId) => {
    expect(parsePromptToken(token)).toBe(projectId);
  });

  it.each([
    ["URL-safe alphabet", "cmVidWlsZElkPX5-fn4="],
    ["URL-safe alphabet", "cmVidWlsZElkPWE_Pn4="],
    ["missing padding", "cmVidWlsZElkPWE/Pn4"],
    ["too much padding", "cmVidWlsZElkPWE/Pn4=="],
    ["padding inside", "cmVi=WlsZElkPWE/Pn4="],
    ["a line break", "cmVidWlsZElk\nPWE/Pn4="],
  ])("rejects %s: %s", (_, token) => {
    expect(() => parsePromptToken(token)).toThrow(PromptTokenError);
  });
});

describe("magic link", () => {
  it("assigns a new copy of a successful rebuild's project to the customer", async () => {
    const { domain, rebuild } = await withSuccess();
    const result = domain.openMagicLink({
      partnerId: 1001,
      promptToken: promptTokenFor(rebuild.projectId),
      customerId: "customer-42",
    });
    expect(result).toEqual({ assigned: true, projectId: expect.any(String), brand: null });
    if (!result.assigned) return;
    expect(result.projectId).not.toBe(rebuild.projectId);
    expect(domain.projects().at(-1)).toEqual({
      projectId: result.projectId,
      partnerId: 1001,
      requestId: rebuild.requestId,
      owner: { kind: "customer", customerId: "customer-42" },
      copiedFrom: rebuild.projectId,
      createdAt: "2026-11-22T00:00:05+00:00",
    });
  });

  it("accepts a percent-encoded token and a partner id written as digits", async () => {
    const { domain, rebuild } = await withSuccess();
    const token = promptTokenFor(rebuild.projectId);
    expect(token).toMatch(/=$/);
    const encoded = encodeURIComponent(token);
    expect(encoded).not.toBe(token);
    expect(domain.openMagicLink({ partnerId: "1001", promptToken: encoded, customerId: "c" }).assigned).toBe(
      true,
    );
  });

  it("creates another independent copy each time it is opened", async () => {
    const { domain, rebuild } = await withSuccess();
    const body = { partnerId: 1001, promptToken: promptTokenFor(rebuild.projectId), customerId: "c" };
    const first = domain.openMagicLink(body);
    const second = domain.openMagicLink(body);
    expect(first.assigned && second.assigned).toBe(true);
    if (!first.assigned || !second.assigned) return;
    expect(first.projectId).not.toBe(second.projectId);
    expect(domain.projects()).toHaveLength(3);
  });

  it("leaves the original and its preview URL unchanged", async () => {
    const { domain, partner, rebuild } = await withSuccess();
    const before = domain.submit(partner, { sourceUrl: "https://example.com/" }).rebuild;
    domain.openMagicLink({
      partnerId: 1001,
      promptToken: promptTokenFor(rebuild.projectId),
      customerId: "c",
    });
    domain.clone(rebuild.requestId, { userId: "u" });
    expect(domain.submit(partner, { sourceUrl: "https://example.com/" }).rebuild).toEqual(before);
    expect(domain.projects()[0]).toMatchObject({ projectId: rebuild.projectId, owner: { kind: "system" } });
  });

  it.each([
    ["empty", ""],
    ["not Base64", "!!!"],
    ["Base64 of the wrong length", "abc"],
    ["unpadded", "__UNPADDED__"],
    ["non-canonical Base64", "__NONCANONICAL__"],
    ["broken percent-encoding", "%E0%A4%A"],
    ["double percent-encoded", "__DOUBLE__"],
    ["not UTF-8", Buffer.from([0x72, 0xff, 0xfe]).toString("base64")],
    ["another key", Buffer.from("projectId=x").toString("base64")],
    ["an empty id", Buffer.from("rebuildId=").toString("base64")],
    ["an unknown project", Buffer.from("rebuildId=nope").toString("base64")],
    ["with spaces around", "__SPACED__"],
  ])("ignores a token that is %s", async (_, raw) => {
    const { domain, rebuild } = await withSuccess();
    const good = promptTokenFor(rebuild.projectId);
    const token =
      {
        __UNPADDED__: good.replace(/=+$/, ""),
        __NONCANONICAL__: good.replace(
          /.==$/,
          (m) => `${String.fromCharCode((m.codePointAt(0) ?? 65) + 1)}==`,
        ),
        __DOUBLE__: encodeURIComponent(encodeURIComponent(good)),
        __SPACED__: ` ${good} `,
      }[raw] ?? raw;
    expect(domain.openMagicLink({ partnerId: 1001, promptToken: token, customerId: "c" })).toEqual({
      assigned: false,
      brand: null,
    });
    expect(domain.projects()).toHaveLength(1);
  });

  it("ignores a token for another partner's rebuild", async () => {
    const { domain, rebuild } = await withSuccess();
    domain.upsertPartner(2001, {});
    const promptToken = promptTokenFor(rebuild.projectId);
    expect(domain.openMagicLink({ partnerId: 2001, promptToken, customerId: "c" })).toEqual({
      assigned: false,
      brand: null,
    });
    expect(domain.openMagicLink({ partnerId: 9999, promptToken, customerId: "c" })).toEqual({
      assigned: false,
      brand: null,
    });
  });

  it("ignores a token for a running or failed rebuild, or for a copy", async () => {
    const { clock, domain, partner, rebuild } = await withSuccess();
    const running = domain.submit(partner, { sourceUrl: "https://stall.example.com/" }).rebuild;
    const failed = domain.submit(partner, { sourceUrl: "https://fail.example.com/" }).rebuild;
    await clock.advance(5000);
    const copy = domain.clone(rebuild.requestId, { userId: "u" });
    for (const projectId of [running.projectId, failed.projectId, copy.projectId]) {
      expect(
        domain.openMagicLink({ partnerId: 1001, promptToken: promptTokenFor(projectId), customerId: "c" }),
      ).toEqual({ assigned: false, brand: null });
    }
  });

  it("validates the control body", () => {
    const { domain } = setup();
    expect(fieldErrorsOf(() => domain.openMagicLink(undefined))).toEqual(["required@"]);
    expect(fieldErrorsOf(() => domain.openMagicLink({}))).toEqual([
      "required@partnerId",
      "required@promptToken",
      "required@customerId",
    ]);
    expect(
      fieldErrorsOf(() => domain.openMagicLink({ partnerId: "01001", promptToken: 5, customerId: "", x: 1 })),
    ).toEqual([
      "unknown_field@x",
      "invalid_format@partnerId",
      "invalid_type@promptToken",
      "too_small@customerId",
    ]);
  });
});

describe("clone to user", () => {
  it("creates a new copy of a successful rebuild for the user", async () => {
    const { domain, rebuild } = await withSuccess();
    const { projectId } = domain.clone(rebuild.requestId, { userId: "user-7" });
    expect(projectId).not.toBe(rebuild.projectId);
    expect(domain.projects().at(-1)).toMatchObject({
      projectId,
      owner: { kind: "user", userId: "user-7" },
      copiedFrom: rebuild.projectId,
    });
    expect(domain.clone(rebuild.requestId, { userId: "user-7" }).projectId).not.toBe(projectId);
  });

  it("answers NOT_FOUND for an unknown request and CONFLICT unless the rebuild succeeded", async () => {
    const { clock, domain, partner } = setup();
    const running = domain.submit(partner, { sourceUrl: "https://stall.example.com/" }).rebuild;
    const failed = domain.submit(partner, { sourceUrl: "https://fail.example.com/" }).rebuild;
    await clock.advance(5000);
    expect(codeOf(() => domain.clone("nope", { userId: "u" }))).toBe("NOT_FOUND");
    expect(codeOf(() => domain.clone(running.requestId, { userId: "u" }))).toBe("CONFLICT");
    expect(codeOf(() => domain.clone(failed.requestId, { userId: "u" }))).toBe("CONFLICT");
  });

  it("validates the body before looking the request up", () => {
    const { domain } = setup();
    expect(fieldErrorsOf(() => domain.clone("nope", {}))).toEqual(["required@userId"]);
    expect(fieldErrorsOf(() => domain.clone("nope", { userId: 7 }))).toEqual(["invalid_type@userId"]);
    expect(fieldErrorsOf(() => domain.clone("nope", "user-1"))).toEqual(["invalid_type@"]);
  });
});
