import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SdkError } from "../../src/core/errors.js";
import {
  buildMagicLink,
  buildPromptToken,
  PromptTokenError,
  parsePromptToken,
} from "../../src/prompt-token.js";

const nonEmptyUnicode = fc.string({ unit: "binary", minLength: 1 });

describe("buildPromptToken", () => {
  it.each([
    ["prj_123", "cmVidWlsZElkPXByal8xMjM="],
    ["a", "cmVidWlsZElkPWE="],
    ["ab", "cmVidWlsZElkPWFi"],
    ["проект-1", "cmVidWlsZElkPdC/0YDQvtC10LrRgi0x"],
    ["😀", "cmVidWlsZElkPfCfmIA="],
  ])("encodes %j as %s", (projectId, token) => {
    expect(buildPromptToken(projectId)).toBe(token);
    expect(buildPromptToken(projectId)).toBe(
      Buffer.from(`rebuildId=${projectId}`, "utf8").toString("base64"),
    );
  });

  it("encodes long ids (past the chunk size used internally)", () => {
    const projectId = "é".repeat(50_000);
    expect(buildPromptToken(projectId)).toBe(Buffer.from(`rebuildId=${projectId}`).toString("base64"));
  });

  it.each([[""], [undefined], [null], [123]])("rejects %j with a TypeError", (projectId) => {
    expect(() => buildPromptToken(projectId as string)).toThrow(
      new TypeError("projectId must be a non-empty string"),
    );
  });

  it("rejects ids with an unpaired surrogate, which UTF-8 cannot carry", () => {
    expect(() => buildPromptToken("prj\uD800")).toThrow(TypeError);
    expect(() => buildPromptToken("prj\uDC00x")).toThrow(/unpaired surrogate/);
  });
});

describe("parsePromptToken", () => {
  it("decodes a raw token", () => {
    expect(parsePromptToken("cmVidWlsZElkPXByal8xMjM=")).toBe("prj_123");
    expect(parsePromptToken("cmVidWlsZElkPdC/0YDQvtC10LrRgi0x")).toBe("проект-1");
  });

  it("decodes a percent-encoded token", () => {
    expect(parsePromptToken("cmVidWlsZElkPXByal8xMjM%3D")).toBe("prj_123");
    expect(parsePromptToken("cmVidWlsZElkPdC%2F0YDQvtC10LrRgi0x")).toBe("проект-1");
    expect(parsePromptToken("cmVidWlsZElkPWE%3d")).toBe("a");
  });

  const notUtf8 = Buffer.from([...Buffer.from("rebuildId="), 0xff]).toString("base64");
  it.each([
    ["", "promptToken is empty"],
    ["cmVi*WlsZElk", "promptToken is not Base64 (standard alphabet A-Z a-z 0-9 + / with = padding)"],
    ["cmVidWlsZElk-Xu_", "promptToken is not Base64 (standard alphabet A-Z a-z 0-9 + / with = padding)"],
    ["cmVidWlsZElkPWE", "promptToken has wrong Base64 padding (its length must be a multiple of 4)"],
    ["cmVidWlsZElkPWE==", "promptToken has wrong Base64 padding (its length must be a multiple of 4)"],
    ["cmVidWlsZElkPWF=", "promptToken is not canonical Base64"],
    ["cmVidWlsZElkPXByal8xMjM%3", "promptToken is not valid percent-encoding"],
    [notUtf8, "promptToken does not decode to UTF-8 text"],
    ["cmVidWlsZGlkPXByal8x", 'promptToken does not decode to a string starting with "rebuildId="'],
    [
      Buffer.from("prj_123").toString("base64"),
      'promptToken does not decode to a string starting with "rebuildId="',
    ],
    ["cmVidWlsZElkPQ==", "promptToken carries an empty project id"],
    ["cmVidWlsZElkPQ%3D%3D", "promptToken carries an empty project id"],
  ])("rejects %j: %s", (token, message) => {
    let thrown: unknown;
    try {
      parsePromptToken(token);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PromptTokenError);
    expect(thrown).toBeInstanceOf(SdkError);
    expect((thrown as Error).name).toBe("PromptTokenError");
    expect((thrown as Error).message).toBe(message);
    if (token.length > 0) {
      expect((thrown as Error).message).not.toContain(token);
      expect((thrown as Error).stack ?? "").not.toContain(token);
      expect(JSON.stringify(thrown)).not.toContain(token);
    }
  });

  it("rejects a non-string with a TypeError", () => {
    expect(() => parsePromptToken(42 as unknown as string)).toThrow(
      new TypeError("promptToken must be a string"),
    );
  });

  it("round-trips any non-empty Unicode id", () => {
    fc.assert(
      fc.property(nonEmptyUnicode, (projectId) => {
        const token = buildPromptToken(projectId);
        expect(parsePromptToken(token)).toBe(projectId);
        expect(parsePromptToken(encodeURIComponent(token))).toBe(projectId);
      }),
      { numRuns: 500 },
    );
  });

  it("round-trips through a magic link's query string", () => {
    fc.assert(
      fc.property(nonEmptyUnicode, (projectId) => {
        const link = new URL(buildMagicLink("https://builder.example.com/login", projectId));
        const raw = link.search
          .slice(1)
          .split("&")
          .find((pair) => pair.startsWith("promptToken="));
        expect(parsePromptToken(raw?.slice("promptToken=".length) ?? "")).toBe(projectId);
        expect(parsePromptToken(link.searchParams.get("promptToken") ?? "")).toBe(projectId);
      }),
      { numRuns: 200 },
    );
  });
});

describe("buildMagicLink", () => {
  it("appends a percent-encoded promptToken", () => {
    expect(buildMagicLink("https://builder.example.com/login", "prj_123")).toBe(
      "https://builder.example.com/login?promptToken=cmVidWlsZElkPXByal8xMjM%3D",
    );
    expect(buildMagicLink("https://builder.example.com/login", "проект-1")).toBe(
      "https://builder.example.com/login?promptToken=cmVidWlsZElkPdC%2F0YDQvtC10LrRgi0x",
    );
  });

  it("keeps the base URL's other query parameters as written, and its hash", () => {
    expect(buildMagicLink("https://b.example.com/in?ref=mail&flag&q=a%20b+c#section-2", "prj_123")).toBe(
      "https://b.example.com/in?ref=mail&flag&q=a%20b+c&promptToken=cmVidWlsZElkPXByal8xMjM%3D#section-2",
    );
  });

  it("accepts a URL object without changing it", () => {
    const base = new URL("https://b.example.com/in?ref=mail");
    expect(buildMagicLink(base, "prj_123")).toBe(
      "https://b.example.com/in?ref=mail&promptToken=cmVidWlsZElkPXByal8xMjM%3D",
    );
    expect(base.href).toBe("https://b.example.com/in?ref=mail");
  });

  it("adds params, which replace base parameters of the same name", () => {
    const link = buildMagicLink("https://b.example.com/in?lang=en&ref=mail#top", "prj_123", {
      lang: "de",
      "utm source": "a&b=c",
    });
    expect(link).toBe(
      "https://b.example.com/in?ref=mail&lang=de&utm%20source=a%26b%3Dc&promptToken=cmVidWlsZElkPXByal8xMjM%3D#top",
    );
    const url = new URL(link);
    expect(url.searchParams.getAll("lang")).toEqual(["de"]);
    expect(url.searchParams.get("utm source")).toBe("a&b=c");
  });

  it("replaces a promptToken already in the base URL", () => {
    const link = buildMagicLink("https://b.example.com/in?promptToken=old&x=1", "prj_123");
    expect(link).toBe("https://b.example.com/in?x=1&promptToken=cmVidWlsZElkPXByal8xMjM%3D");
  });

  it("refuses params that would override promptToken", () => {
    expect(() => buildMagicLink("https://b.example.com/", "prj_123", { promptToken: "x" })).toThrow(
      new TypeError("params cannot set promptToken: it is built from projectId"),
    );
  });

  it("refuses a base URL with user info, as the clients refuse such a baseUrl", () => {
    for (const base of [
      "https://panel.example.com@evil.example/login",
      "https://u:p@panel.example.com/login",
      "https://@panel.example.com/",
      "http://user@panel.example.com:8080/in?x=1#f",
      new URL("https://u:p@panel.example.com/"),
    ]) {
      expect(() => buildMagicLink(base, "prj_123"), String(base)).toThrow(
        new TypeError("baseUrl must be an absolute http or https URL without user info"),
      );
    }
    // An @ in the path, query or fragment is no user info.
    expect(buildMagicLink("https://panel.example.com/@team/in?by=a@b#c@d", "prj_1")).toBe(
      "https://panel.example.com/@team/in?by=a@b&promptToken=cmVidWlsZElkPXByal8x#c@d",
    );
  });

  it("rejects a relative base URL, non-string params and a bad project id", () => {
    for (const base of ["/login", "javascript:alert(1)//", "data:text/html,hi", "http:example.com"]) {
      expect(() => buildMagicLink(base, "prj_123")).toThrow(
        new TypeError("baseUrl must be an absolute http or https URL without user info"),
      );
    }
    expect(() => buildMagicLink("https://b.example.com/a b", "prj_123")).toThrow(
      new TypeError("baseUrl must be an absolute http or https URL without user info"),
    );
    expect(() => buildMagicLink("https://b.example.com/", "prj_123", { a: 1 as unknown as string })).toThrow(
      new TypeError("params.a must be a string"),
    );
    expect(() => buildMagicLink("https://b.example.com/", "")).toThrow(TypeError);
  });
});
