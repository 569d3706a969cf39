import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatTimestamp } from "../../mocks/domain/timestamp.js";

describe("formatTimestamp", () => {
  it("gives the same text as formatting afresh, whatever the order of calls (its one-entry cache)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e12, max: 4e12 }), { maxLength: 50 }), (times) => {
        for (const ms of times) {
          expect(formatTimestamp(ms)).toBe(`${new Date(ms).toISOString().slice(0, 19)}+00:00`);
          expect(formatTimestamp(ms + 999 - (((ms % 1000) + 1000) % 1000))).toBe(formatTimestamp(ms));
        }
      }),
    );
  });
});
