import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { timingSafeEqual } from "../../../src/core/timing-safe-equal.js";
import { createRebuildWebhookHandler, parseRebuildCallback } from "../../../src/webhooks/index.js";
import { callbackRequest, succeeded } from "./fixtures.js";

const bytes = (text: string) => new TextEncoder().encode(text);

/** Wraps bytes so every indexed read is counted. */
function counting(source: Uint8Array): { view: Uint8Array; reads: () => number } {
  let reads = 0;
  const view = new Proxy(source, {
    get(target, property) {
      if (typeof property === "string" && /^\d+$/.test(property)) reads++;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { view, reads: () => reads };
}

describe("timingSafeEqual", () => {
  it("is true only for identical bytes", () => {
    expect(timingSafeEqual(bytes("secret-key"), bytes("secret-key"))).toBe(true);
    expect(timingSafeEqual(bytes("secret-key"), bytes("Secret-key"))).toBe(false);
    expect(timingSafeEqual(bytes("secret-key"), bytes("secret-kez"))).toBe(false);
    expect(timingSafeEqual(bytes("secret-key"), bytes("secret"))).toBe(false);
    expect(timingSafeEqual(bytes("secret"), bytes("secret-key"))).toBe(false);
    expect(timingSafeEqual(bytes("secret"), bytes(""))).toBe(false);
    // A received value that is the key followed by NUL bytes must not pass via the `?? 0` padding.
    expect(timingSafeEqual(bytes("secret"), new Uint8Array([...bytes("secret"), 0]))).toBe(false);
    expect(timingSafeEqual(new Uint8Array([...bytes("secret"), 0]), bytes("secret"))).toBe(false);
  });

  it("reads every byte of the received value whatever the expected one (no early exit; the secret's length does not show)", () => {
    const counts = [
      "X123456789abcdef",
      "0123456789abcdeX",
      "0123456789abcdef",
      "short",
      "0123456789abcdef-longer",
    ].map((expected) => {
      const { view, reads } = counting(bytes("0123456789abcdef"));
      timingSafeEqual(bytes(expected), view);
      return reads();
    });
    expect(counts).toEqual([16, 16, 16, 16, 16]);
  });

  it("agrees with plain equality", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 }), (a, b) => {
        expect(timingSafeEqual(a, b)).toBe(Buffer.from(a).equals(Buffer.from(b)));
        expect(timingSafeEqual(a, a.slice())).toBe(true);
      }),
    );
  });
});

describe("secrecy of webhook keys", () => {
  // Prefixes make a generated key impossible to find by accident in the fixed message texts.
  const configured = fc.string({ minLength: 1 }).map((text) => `cfg-${text}`);
  const received = fc.string({ minLength: 1 }).map((text) => `rcv-${text}`);

  function leaks(error: unknown, secrets: readonly string[]): string[] {
    const error_ = error as Error & Record<string, unknown>;
    const surfaces = [
      error_.message,
      error_.stack ?? "",
      String(error_),
      JSON.stringify(error_),
      JSON.stringify(Object.entries(error_)),
      String(error_.cause ?? ""),
    ];
    return secrets.filter((secret) => surfaces.some((surface) => surface.includes(secret)));
  }

  it("no error from the parser contains the configured or the received key", () => {
    fc.assert(
      fc.property(configured, received, fc.boolean(), (webhookApiKey, wrong, asArray) => {
        let thrown: unknown;
        try {
          parseRebuildCallback({
            body: JSON.stringify(succeeded),
            headers: { "x-api-key": asArray ? [wrong] : wrong },
            webhookApiKey,
          });
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(Error);
        expect(leaks(thrown, [webhookApiKey, wrong])).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it("no error for ambiguous headers contains any of the values", () => {
    fc.assert(
      fc.property(configured, received, received, (webhookApiKey, first, second) => {
        fc.pre(first !== second);
        let thrown: unknown;
        try {
          parseRebuildCallback({
            body: "{}",
            headers: { "x-api-key": [first, second, webhookApiKey] },
            webhookApiKey,
          });
        } catch (error) {
          thrown = error;
        }
        expect(leaks(thrown, [webhookApiKey, first, second])).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it("no 401 response body contains either key", async () => {
    const latin1 = (prefix: string) =>
      fc
        .string({
          unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
          minLength: 1,
        })
        .map((text) => `${prefix}${text}`);
    await fc.assert(
      fc.asyncProperty(latin1("cfg-"), latin1("rcv-"), async (webhookApiKey, wrong) => {
        const handler = createRebuildWebhookHandler({ webhookApiKey, onCompleted: () => {} });
        const response = await handler(callbackRequest(succeeded, { key: wrong }));
        expect(response.status).toBe(401);
        const text = await response.text();
        expect(text).not.toContain(webhookApiKey);
        expect(text).not.toContain(wrong);
      }),
      { numRuns: 100 },
    );
  });
});
