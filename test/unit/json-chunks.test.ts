import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonDepth } from "../../mocks/domain/validation/json-depth.js";
import { jsonChunks } from "../../mocks/http/json-chunks.js";

describe("jsonChunks: JSON too large for one string, in pieces", () => {
  it("joins to exactly what JSON.stringify writes", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 64 }), (value, size) => {
        expect([...jsonChunks(value, size)].join("")).toBe(JSON.stringify(value));
      }),
      { numRuns: 1000, seed: 17 },
    );
  });

  it("leaves out what JSON leaves out and nests without recursion", () => {
    const odd = { a: undefined, b: [undefined, () => 1, Number.NaN], c: { toJSON: () => "c" } };
    expect([...jsonChunks(odd)].join("")).toBe(JSON.stringify(odd));
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const text = [...jsonChunks(deep, 1 << 20)].join("");
    expect(text.length).toBe(200_001);
  });
});

describe("jsonDepth", () => {
  it.each([
    ["1", 0],
    ["[]", 1],
    ['{"a":[{"b":[]}]}', 4],
    ['["[[[[", "\\"[[["]', 1],
    ["[".repeat(1000), 1000],
  ])("%s nests %i deep", (text, depth) => {
    expect(jsonDepth(text)).toBe(depth);
  });
});
