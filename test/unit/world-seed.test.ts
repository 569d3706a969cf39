import { describe, expect, it } from "vitest";
import { createClock, createMockWorld } from "../../mocks/index.js";

const clock = () => createClock({ frozenAt: Date.UTC(2026, 10, 22) });

describe("createMockWorld seed halves", () => {
  it("a missing half loads its default seed", () => {
    expect(() => createMockWorld({ clock: clock(), seed: {} })).not.toThrow();
  });

  it.each([
    ["dashboard", /^Invalid seed: dashboard: must be an object$/],
    ["rebuild", /^Invalid seed: rebuild: must be an object$/],
  ])("an explicit null %s half is refused, not replaced by the default", (half, message) => {
    expect(() => createMockWorld({ clock: clock(), seed: { [half]: null } as never })).toThrow(message);
  });
});
