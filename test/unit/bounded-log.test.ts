import { describe, expect, it } from "vitest";
import { createBoundedLog } from "../../mocks/domain/bounded-log.js";

describe("bounded log", () => {
  it("keeps the most recent items and counts the dropped ones", () => {
    const log = createBoundedLog<number>(3);
    for (let i = 1; i <= 10; i++) log.push(i);
    expect(log.items()).toEqual([8, 9, 10]);
    expect(log.dropped).toBe(7);
    expect(log.size).toBe(3);
  });

  it("restores content and drop count, dropping what is over the limit", () => {
    const log = createBoundedLog<number>(2);
    log.restore([1, 2, 3], 4);
    expect(log.items()).toEqual([2, 3]);
    expect(log.dropped).toBe(5);
    log.clear();
    expect([log.items(), log.dropped]).toEqual([[], 0]);
  });
});
