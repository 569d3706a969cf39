// Guards the fixed seed of test/support/fixed-seed.ts: without it, each run of the property tests
// would draw new inputs, and a failure seen once could not be seen again.
import fc from "fast-check";
import { describe, expect, it } from "vitest";

describe("property tests", () => {
  it("run from the suite's fixed seed, and name it when they fail", () => {
    // Set by the setup file (vitest.config.ts), not imported here: this fails if the file is not loaded.
    const seed = fc.readConfigureGlobal().seed;
    expect(Number.isInteger(seed)).toBe(true);
    const failure = fc.check(fc.property(fc.integer(), (n) => n < 1000));
    expect(failure.failed).toBe(true);
    expect(failure.seed).toBe(seed);
    expect(() => fc.assert(fc.property(fc.integer(), (n) => n < 1000))).toThrow(`seed: ${seed}`);
  });

  it("draw the same inputs on every run", () => {
    const draw = () => fc.sample(fc.string(), { numRuns: 5 });
    expect(draw()).toEqual(draw());
  });
});
