import { describe, expect, it } from "vitest";
import { createClock, type TimerPort } from "../../mocks/domain/clock.js";

const T0 = Date.parse("2026-11-22T00:00:00Z");

describe("clock", () => {
  it("stands still when frozen and moves only through advance", async () => {
    const clock = createClock({ frozenAt: T0 });
    expect(clock.now()).toBe(T0);
    await clock.advance(1500);
    expect(clock.now()).toBe(T0 + 1500);
  });

  it("follows the source plus an offset when not frozen", async () => {
    let source = T0;
    const clock = createClock({ source: () => source });
    source += 1000;
    expect(clock.now()).toBe(T0 + 1000);
    await clock.advance(60_000);
    expect(clock.offsetMs).toBe(60_000);
    source += 1000;
    expect(clock.now()).toBe(T0 + 62_000);
  });

  it("runs due tasks in time order, at their own due time, including tasks they schedule", async () => {
    const clock = createClock({ frozenAt: T0 });
    const seen: Array<[string, number]> = [];
    clock.schedule(T0 + 2000, () => {
      seen.push(["b", clock.now()]);
    });
    clock.schedule(T0 + 1000, () => {
      seen.push(["a", clock.now()]);
      clock.schedule(clock.now() + 500, () => {
        seen.push(["a+500", clock.now()]);
      });
    });
    clock.schedule(T0 + 9000, () => {
      seen.push(["late", clock.now()]);
    });
    await clock.advance(5000);
    expect(seen).toEqual([
      ["a", T0 + 1000],
      ["a+500", T0 + 1500],
      ["b", T0 + 2000],
    ]);
    expect(clock.now()).toBe(T0 + 5000);
  });

  it("awaits asynchronous tasks before advance resolves", async () => {
    const clock = createClock({ frozenAt: T0 });
    let done = false;
    clock.schedule(T0 + 10, async () => {
      await Promise.resolve();
      done = true;
    });
    await clock.advance(10);
    expect(done).toBe(true);
  });

  it("cancels scheduled tasks and drops them on reset", async () => {
    const clock = createClock({ frozenAt: T0 });
    let runs = 0;
    const cancel = clock.schedule(T0 + 10, () => {
      runs++;
    });
    cancel();
    clock.schedule(T0 + 20, () => {
      runs++;
    });
    await clock.advance(5);
    clock.reset();
    await clock.advance(100);
    expect(runs).toBe(0);
    expect(clock.now()).toBe(T0 + 100);
  });

  it("rejects a negative or non-finite advance", async () => {
    const clock = createClock({ frozenAt: T0 });
    await expect(clock.advance(-1)).rejects.toThrow(RangeError);
    await expect(clock.advance(Number.NaN)).rejects.toThrow(RangeError);
  });

  it("wakes itself through the timer port when following the source", async () => {
    let source = T0;
    const armed: Array<{ callback: () => void; delay: number }> = [];
    const timers: TimerPort = {
      set: (callback, delay) => {
        const entry = { callback, delay };
        armed.push(entry);
        return entry;
      },
      clear: (handle) => {
        armed.splice(armed.indexOf(handle as (typeof armed)[number]), 1);
      },
    };
    const clock = createClock({ source: () => source, timers });
    let ran = false;
    clock.schedule(T0 + 5000, () => {
      ran = true;
    });
    expect(armed.map((a) => a.delay)).toEqual([5000]);
    source += 5000;
    const fired = armed.shift();
    fired?.callback();
    await clock.settle();
    expect(ran).toBe(true);
    expect(armed).toEqual([]);
  });
});
