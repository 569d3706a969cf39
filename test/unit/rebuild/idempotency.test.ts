import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isPublicHost } from "../../../mocks/domain/rebuild/public-host.js";
import { setup } from "./fixture.js";

describe("submission idempotency", () => {
  it("starts a running rebuild for a new URL and returns it for a repeat, ignoring a new prompt", () => {
    const { domain, partner } = setup();
    const first = domain.submit(partner, { sourceUrl: "https://example.com/", prompt: "first" });
    expect(first.created).toBe(true);
    expect(first.rebuild).toEqual({
      requestId: expect.any(String),
      projectId: expect.any(String),
      status: "running",
    });
    const again = domain.submit(partner, { sourceUrl: "https://example.com/", prompt: "second" });
    expect(again).toEqual({ created: false, rebuild: first.rebuild });
    expect(domain.rebuilds()).toHaveLength(1);
    expect(domain.rebuilds()[0]?.prompt).toBe("first");
  });

  it.each([
    ["https://Example.com", "https://example.com/"],
    ["https://example.com/#pricing", "https://example.com/"],
    ["https://example.com/#", "https://example.com"],
    ["HTTPS://EXAMPLE.COM:443/", "https://example.com/"],
    ["http://example.com:80/a/./b/../c", "http://example.com/a/c"],
    ["https://example.com./", "https://example.com./"],
    ["https://bücher.example.com/", "https://xn--bcher-kva.example.com/"],
    ["https://example.com/a%7Eb", "https://example.com/a%7Eb"],
  ])("treats %s and %s as the same URL", (a, b) => {
    const { domain, partner } = setup();
    const first = domain.submit(partner, { sourceUrl: a });
    expect(domain.submit(partner, { sourceUrl: b })).toEqual({ created: false, rebuild: first.rebuild });
  });

  it.each([
    ["https://example.com/", "http://example.com/"],
    ["https://example.com/A", "https://example.com/a"],
    ["https://example.com/", "https://example.com/?q=1"],
    ["https://example.com/", "https://www.example.com/"],
    ["https://example.com/", "https://example.com:8443/"],
    ["https://example.com/a/", "https://example.com/a"],
    ["https://example.com/", "https://example.com./"],
  ])("treats %s and %s as different URLs", (a, b) => {
    const { domain, partner } = setup();
    const first = domain.submit(partner, { sourceUrl: a });
    const second = domain.submit(partner, { sourceUrl: b });
    expect(second.created).toBe(true);
    expect(second.rebuild.requestId).not.toBe(first.rebuild.requestId);
  });

  it("keeps the URL as first submitted for the callback", async () => {
    const { clock, domain, partner, posts } = setup();
    domain.submit(partner, { sourceUrl: "https://Example.com/#top" });
    domain.submit(partner, { sourceUrl: "https://example.com/" });
    await clock.advance(5000);
    expect(JSON.parse(posts[0]?.body ?? "{}").source_url).toBe("https://Example.com/#top");
    expect(domain.rebuilds()[0]).toMatchObject({
      sourceUrl: "https://Example.com/#top",
      normalizedSourceUrl: "https://example.com/",
    });
  });

  it("keys by partner: two partners submitting one URL get two rebuilds", () => {
    const { domain, partner } = setup();
    const { apiKey } = domain.upsertPartner(2001, {});
    const other = domain.authenticate("2001", apiKey);
    const a = domain.submit(partner, { sourceUrl: "https://example.com/" });
    const b = domain.submit(other, { sourceUrl: "https://example.com/" });
    expect(b.created).toBe(true);
    expect(b.rebuild.requestId).not.toBe(a.rebuild.requestId);
  });

  it("returns a failed rebuild as it is and starts nothing", async () => {
    const { clock, domain, partner, posts } = setup();
    const first = domain.submit(partner, { sourceUrl: "https://fail.example.com/" });
    await clock.advance(5000);
    const again = domain.submit(partner, { sourceUrl: "https://fail.example.com/", prompt: "try harder" });
    expect(again).toEqual({ created: false, rebuild: { ...first.rebuild, status: "failed" } });
    await clock.advance(60_000);
    expect(domain.rebuilds()).toHaveLength(1);
    expect(posts).toHaveLength(1);
  });

  it("returns a successful rebuild with its preview URL", async () => {
    const { clock, domain, partner } = setup();
    const first = domain.submit(partner, { sourceUrl: "https://example.com/" });
    await clock.advance(5000);
    const again = domain.submit(partner, { sourceUrl: "https://example.com/" });
    expect(again).toEqual({
      created: false,
      rebuild: {
        ...first.rebuild,
        status: "success",
        previewUrl: `https://preview.mock.example/projects/${first.rebuild.projectId}`,
      },
    });
  });

  it("creates exactly one rebuild for 20 concurrent identical submissions", async () => {
    const { clock, domain, partner, posts } = setup();
    const results = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        await Promise.resolve();
        return domain.submit(partner, { sourceUrl: "https://example.com/landing", prompt: `variant ${i}` });
      }),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.rebuild.requestId)).size).toBe(1);
    expect(domain.rebuilds()).toHaveLength(1);
    await clock.advance(5000);
    expect(posts).toHaveLength(1);
  });

  it("normalises any public URL the same way with or without case changes and a fragment", () => {
    const { domain, partner } = setup();
    const host = fc.domain().filter(isPublicHost);
    const path = fc
      .array(fc.stringMatching(/^[a-z0-9-]{1,8}$/), { maxLength: 3 })
      .map((p) => `/${p.join("/")}`);
    fc.assert(
      fc.property(host, path, fc.stringMatching(/^[a-z0-9]{0,8}$/), (name, p, fragment) => {
        const first = domain.submit(partner, { sourceUrl: `https://${name.toUpperCase()}${p}#${fragment}` });
        const second = domain.submit(partner, { sourceUrl: `https://${name}${p}` });
        expect(second.created).toBe(false);
        expect(second.rebuild.requestId).toBe(first.rebuild.requestId);
      }),
      { numRuns: 300 },
    );
  });
});
