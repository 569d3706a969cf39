import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { ClockLimitError, createClock, type TimerPort } from "../../mocks/domain/clock.js";

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
    await expect(clock.advance({ seconds: -1 })).rejects.toThrow(/\{ seconds: -1 \}/);
    await expect(clock.advance({ seconds: Number.POSITIVE_INFINITY })).rejects.toThrow(RangeError);
    expect(clock.now()).toBe(T0);
  });

  it("takes a step in seconds as { seconds }, or a bare number of milliseconds", async () => {
    const clock = createClock({ frozenAt: T0 });
    await clock.advance({ seconds: 6 });
    expect(clock.now()).toBe(T0 + 6000);
    await clock.advance({ seconds: 0.5 });
    await clock.advance(5);
    expect(clock.now()).toBe(T0 + 6505);
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

/** A promise with its resolve function, to hold a task open until the test lets it go. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** Turns of the event loop (no clock): what would wrongly finish has had the time to. */
async function turns(count = 20): Promise<void> {
  for (let turn = 0; turn < count; turn++) await nextTurn();
}

describe("clock: tasks due together run concurrently", () => {
  it("starts every task due in the step without waiting for a slow one, and advance waits for all", async () => {
    const clock = createClock({ frozenAt: T0 });
    const slow = gate();
    const started: string[] = [];
    let slowDone = false;
    clock.schedule(T0 + 1000, async () => {
      started.push("slow");
      await slow.opened;
      slowDone = true;
    });
    clock.schedule(T0 + 1000, () => {
      started.push("same time");
    });
    const later = gate();
    clock.schedule(T0 + 2000, () => {
      started.push("later");
      later.open();
    });
    let advanced = false;
    const advancing = clock.advance(5000).then(() => {
      advanced = true;
    });
    await later.opened;
    await turns();
    expect(started).toEqual(["slow", "same time", "later"]);
    expect(advanced).toBe(false);
    slow.open();
    await advancing;
    expect(slowDone).toBe(true);
    expect(clock.now()).toBe(T0 + 5000);
  });

  it("runs work a slow task schedules late at its own due time, and runs it within the same advance", async () => {
    const clock = createClock({ frozenAt: T0 });
    const slow = gate();
    const seen: Array<[string, number]> = [];
    clock.schedule(T0 + 1000, async () => {
      const startedAt = clock.now();
      await slow.opened;
      clock.schedule(startedAt + 500, () => {
        seen.push(["follow-up", clock.now()]);
      });
    });
    clock.schedule(T0 + 3000, () => {
      seen.push(["later", clock.now()]);
      slow.open();
    });
    await clock.advance(10_000);
    expect(seen).toEqual([
      ["later", T0 + 3000],
      ["follow-up", T0 + 1500],
    ]);
    expect(clock.now()).toBe(T0 + 10_000);
  });

  it("the self-wake timer starts a task due later while an earlier one is still running", async () => {
    let source = T0;
    const armed: Array<() => void> = [];
    const timers: TimerPort = { set: (callback) => armed.push(callback), clear: () => undefined };
    const clock = createClock({ source: () => source, timers });
    const slow = gate();
    const ran: string[] = [];
    clock.schedule(T0 + 1000, async () => {
      ran.push("slow started");
      await slow.opened;
    });
    clock.schedule(T0 + 2000, () => {
      ran.push("other partner");
    });
    source = T0 + 1000;
    armed.shift()?.();
    source = T0 + 2000;
    armed.shift()?.();
    expect(ran).toEqual(["slow started", "other partner"]);
    slow.open();
    await clock.settle();
  });
});

describe("clock: reset wins", () => {
  it("a reset while an advance waits for a task stops it and the ones queued behind it: time stays at the reset's", async () => {
    const clock = createClock({ frozenAt: T0 });
    const slow = gate();
    const running = gate();
    clock.schedule(T0 + 1000, () => {
      running.open();
      return slow.opened;
    });
    const advancing = clock.advance(60_000);
    const queued = clock.advance(5);
    await running.opened;
    clock.reset();
    slow.open();
    await advancing;
    await queued;
    expect(clock.now()).toBe(T0);
    await clock.advance(1000);
    expect(clock.now()).toBe(T0 + 1000);
  });
});

describe("clock: bounds", () => {
  const LATEST = Date.parse("9999-12-31T23:59:59Z");

  it("refuses an advance past 9999-12-31T23:59:59Z and stays where it was", async () => {
    const clock = createClock({ frozenAt: LATEST - 10_000 });
    await expect(clock.advance(10_001)).rejects.toBeInstanceOf(ClockLimitError);
    await expect(clock.advance(10_001)).rejects.toMatchObject({ maxMs: 10_000 });
    expect(clock.now()).toBe(LATEST - 10_000);
    await clock.advance(10_000);
    expect(clock.now()).toBe(LATEST);
    await expect(clock.advance(1)).rejects.toThrow(/9999-12-31T23:59:59Z/);
  });

  it("never reads past the bound while following the source", () => {
    let source = LATEST - 1000;
    const clock = createClock({ source: () => source });
    source += 60_000;
    expect(clock.now()).toBe(LATEST);
  });

  it("refuses a start or a time outside years 0000 to 9999", () => {
    expect(() => createClock({ frozenAt: LATEST + 1 })).toThrow(RangeError);
    expect(() => createClock({ frozenAt: Number.NaN })).toThrow(RangeError);
    const clock = createClock({ frozenAt: T0 });
    expect(() => clock.setTime(Date.parse("-000001-01-01T00:00:00Z"))).toThrow(RangeError);
    clock.setTime(T0 + 5);
    expect(clock.now()).toBe(T0 + 5);
  });
});

describe("clock: a task that throws", () => {
  it("is reported; the self-wake timer does not throw and later tasks still run", async () => {
    let source = T0;
    const armed: Array<() => void> = [];
    const reported: unknown[] = [];
    const timers: TimerPort = { set: (callback) => armed.push(callback), clear: () => undefined };
    const clock = createClock({ source: () => source, timers, onTaskError: (error) => reported.push(error) });
    let ran = false;
    clock.schedule(T0 + 10, () => {
      throw new Error("sync bug");
    });
    clock.schedule(T0 + 10, async () => {
      throw new Error("async bug");
    });
    clock.schedule(T0 + 10, () => {
      ran = true;
    });
    source = T0 + 10;
    expect(() => armed.shift()?.()).not.toThrow();
    await clock.settle().catch(() => undefined);
    expect(ran).toBe(true);
    expect(reported.map((e) => (e as Error).message).sort()).toEqual(["async bug", "sync bug"]);
  });

  it("rejects the advance that ran it, after running the rest and moving the clock", async () => {
    const clock = createClock({ frozenAt: T0 });
    let ran = false;
    clock.schedule(T0 + 1, () => {
      throw new Error("bug");
    });
    clock.schedule(T0 + 2, () => {
      ran = true;
    });
    await expect(clock.advance(10)).rejects.toThrow("bug");
    expect(ran).toBe(true);
    expect(clock.now()).toBe(T0 + 10);
  });
});

describe("clock: stopwatch", () => {
  it("counts source time while following it, nothing while frozen", () => {
    let source = T0;
    const following = createClock({ source: () => source });
    const frozen = createClock({ source: () => source, frozenAt: T0 });
    const a = following.stopwatch();
    const b = frozen.stopwatch();
    source += 1234;
    expect(a()).toBe(1234);
    expect(b()).toBe(0);
  });
});
