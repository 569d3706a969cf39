import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createClock, type TimerPort } from "../../mocks/domain/clock.js";
import { cryptoRandom } from "../../mocks/domain/random.js";
import { createTaskQueue, type QueuedTask } from "../../mocks/domain/task-queue.js";

const T0 = Date.parse("2026-11-22T00:00:00Z");

type Op =
  | { kind: "push"; at: number }
  | { kind: "cancel"; pick: number }
  | { kind: "take" }
  | { kind: "clear" };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant("push" as const), at: fc.integer({ min: 0, max: 20 }) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("cancel" as const), pick: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("take" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("clear" as const) }) },
);

describe("TaskQueue", () => {
  it("takes tasks in (at, seq) order, skipping cancelled ones, like a sorted list does", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const queue = createTaskQueue();
        let model: QueuedTask[] = [];
        const cancels: Array<{ task: QueuedTask; cancel: () => void }> = [];
        let seq = 0;
        for (const step of ops) {
          if (step.kind === "push") {
            const task: QueuedTask = { at: step.at, seq: seq++, run: () => {} };
            cancels.push({ task, cancel: queue.push(task) });
            model.push(task);
          } else if (step.kind === "cancel" && cancels.length > 0) {
            const { task, cancel } = cancels[step.pick % cancels.length] as (typeof cancels)[number];
            cancel();
            model = model.filter((t) => t !== task);
          } else if (step.kind === "take") {
            model.sort((a, b) => a.at - b.at || a.seq - b.seq);
            expect(queue.take()).toBe(model.shift());
          } else if (step.kind === "clear") {
            queue.clear();
            model = [];
          }
          expect(queue.size).toBe(model.length);
          const earliest = [...model].sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
          expect(queue.peek()).toBe(earliest);
        }
      }),
    );
  });
});

describe("TaskQueue with tasks mostly in time order (each rebuild's completion)", () => {
  it("takes them in (at, seq) order like a sorted list, through many pushes, cancels and takes", () => {
    // Steps forward in time (the list), now and then one due earlier (the heap); enough of them,
    // and of cancels, that the list's front is cut off and the queue rebuilt.
    const step = fc.oneof(
      {
        weight: 8,
        arbitrary: fc.record({ kind: fc.constant("push" as const), by: fc.integer({ min: 0, max: 3 }) }),
      },
      {
        weight: 1,
        arbitrary: fc.record({ kind: fc.constant("push" as const), by: fc.integer({ min: -30, max: -1 }) }),
      },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant("cancel" as const), pick: fc.nat() }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant("take" as const) }) },
    );
    fc.assert(
      fc.property(fc.array(step, { minLength: 200, maxLength: 1200 }), (steps) => {
        const queue = createTaskQueue();
        let model: QueuedTask[] = [];
        const cancels: Array<{ task: QueuedTask; cancel: () => void }> = [];
        let seq = 0;
        let at = 100;
        const sorted = () => [...model].sort((a, b) => a.at - b.at || a.seq - b.seq);
        for (const s of steps) {
          if (s.kind === "push") {
            at = Math.max(0, at + s.by);
            const task: QueuedTask = { at, seq: seq++, run: () => {} };
            cancels.push({ task, cancel: queue.push(task) });
            model.push(task);
          } else if (s.kind === "cancel" && cancels.length > 0) {
            const { task, cancel } = cancels[s.pick % cancels.length] as (typeof cancels)[number];
            cancel();
            model = model.filter((t) => t !== task);
          } else if (s.kind === "take") {
            const expected = sorted()[0];
            expect(queue.take()).toBe(expected);
            model = model.filter((t) => t !== expected);
          }
          expect(queue.size).toBe(model.length);
          expect(queue.peek()).toBe(sorted()[0]);
        }
      }),
      { numRuns: 30 },
    );
  });
});

describe("clock wake-up with many tasks", () => {
  it("keeps one timer for the earliest task and re-arms only when that changes", () => {
    const armed: Array<{ delay: number }> = [];
    const timers: TimerPort = {
      set: (_callback, delay) => {
        const entry = { delay };
        armed.push(entry);
        return entry;
      },
      clear: (handle) => {
        armed.splice(armed.indexOf(handle as (typeof armed)[number]), 1);
      },
    };
    const clock = createClock({ source: () => T0, timers });
    const cancelFirst = clock.schedule(T0 + 5000, () => {});
    for (let i = 1; i <= 1000; i++) clock.schedule(T0 + 5000 + i, () => {});
    expect(armed.map((a) => a.delay)).toEqual([5000]);
    clock.schedule(T0 + 100, () => {});
    expect(armed.map((a) => a.delay)).toEqual([100]);
    cancelFirst();
    expect(armed.map((a) => a.delay)).toEqual([100]);
    clock.reset();
    expect(armed).toEqual([]);
  });
});

describe("cryptoRandom", () => {
  it("hands out fresh bytes of the asked length, never the same ones twice", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 600; i++) {
      const bytes = cryptoRandom.bytes(16);
      expect(bytes).toHaveLength(16);
      seen.add(Buffer.from(bytes).toString("hex"));
    }
    expect(seen.size).toBe(600);
    expect(cryptoRandom.bytes(10_000)).toHaveLength(10_000);
  });

  it("returns copies, so a caller changing its bytes (a GUID's version bits) touches nothing else", () => {
    const bytes = cryptoRandom.bytes(8);
    expect(bytes.buffer.byteLength).toBe(8);
  });
});
