import { type QueuedTask, TaskQueue } from "./task-queue.js";

/**
 * The mock's only notion of time. Domain code reads `now()` and schedules work here; nothing in the
 * domain touches the wall clock, so tests freeze the clock and advance it instead of sleeping.
 */
export interface Clock {
  /** Current virtual time, epoch milliseconds. */
  now(): number;
  /** Runs `task` once the virtual time reaches `atMs`. Returns a function that cancels it. */
  schedule(atMs: number, task: () => void | Promise<void>): () => void;
  /** Moves virtual time forward and runs every task that falls due, in time order, awaiting each. */
  advance(ms: number): Promise<void>;
  /** Stops following the time source; time then moves only through `advance`. */
  freeze(): void;
  /** Virtual time minus source time. */
  readonly offsetMs: number;
  readonly frozen: boolean;
  /** Resolves once no due task is running (tasks started by the self-wake timer included). */
  settle(): Promise<void>;
  /** Back to following the source with offset 0 (or frozen at `frozenAt`); pending tasks are dropped. */
  reset(): void;
  /** Cancels the self-wake timer so a process can exit. */
  dispose(): void;
}

export interface TimerPort {
  set(callback: () => void, delayMs: number): unknown;
  clear(handle: unknown): void;
}

export interface ClockOptions {
  /** Where real time comes from; supplied by the entry point (usually `Date.now`). */
  source?: () => number;
  /** Starts frozen at this epoch-ms time. */
  frozenAt?: number;
  /** Lets an unfrozen clock wake itself when the next task falls due; without it only `advance` runs tasks. */
  timers?: TimerPort;
}

// Longest single host timer (about 24.8 days); later wake-ups are re-armed in steps.
const MAX_TIMER_MS = 2_147_483_647;

export function createClock(options: ClockOptions = {}): Clock {
  const source = options.source ?? (() => 0);
  let frozenAt = options.frozenAt;
  let offset = 0;
  const tasks = new TaskQueue();
  let seq = 0;
  let wakeHandle: unknown;
  // The source time the wake timer is set for, so scheduling a later task leaves the timer alone.
  let wakeAtSource: number | undefined;
  let running: Promise<void> = Promise.resolve();

  const now = () => (frozenAt !== undefined ? frozenAt : source() + offset);

  const takeDue = (until: number): QueuedTask | undefined => {
    const next = tasks.peek();
    return next !== undefined && next.at <= until ? tasks.take() : undefined;
  };

  const runDue = async (until: () => number, moveTo?: (at: number) => void) => {
    for (let task = takeDue(until()); task; task = takeDue(until())) {
      moveTo?.(task.at);
      await task.run();
    }
  };

  // Serialises every run of due tasks so `advance` and the self-wake timer never interleave.
  const exclusive = (work: () => Promise<void>): Promise<void> => {
    const next = running.then(work, work);
    running = next.catch(() => undefined);
    return next;
  };

  const rearm = () => {
    if (!options.timers) return;
    const next = frozenAt === undefined ? tasks.peek() : undefined;
    // Already set for the moment the earliest task falls due (same task time, same offset).
    if (next !== undefined && wakeHandle !== undefined && wakeAtSource === next.at - offset) return;
    if (wakeHandle !== undefined) options.timers.clear(wakeHandle);
    wakeHandle = undefined;
    wakeAtSource = undefined;
    if (next === undefined) return;
    const delay = Math.min(Math.max(0, next.at - now()), MAX_TIMER_MS);
    // A wake-up capped at MAX_TIMER_MS comes early, finds nothing due and re-arms.
    wakeAtSource = delay === MAX_TIMER_MS ? undefined : next.at - offset;
    wakeHandle = options.timers.set(() => {
      wakeHandle = undefined;
      wakeAtSource = undefined;
      void exclusive(() => runDue(now)).finally(rearm);
    }, delay);
  };

  const clock: Clock = {
    now,
    schedule(atMs, task) {
      const cancel = tasks.push({ at: atMs, seq: seq++, run: task });
      rearm();
      return () => {
        cancel();
        rearm();
      };
    },
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) {
        return Promise.reject(
          new RangeError(`advance() takes a finite, non-negative number of ms, got ${ms}`),
        );
      }
      return exclusive(async () => {
        const target = now() + ms;
        // While due tasks run, virtual time stands at each task's due time, so work they schedule
        // (a retry 10 s later, say) is measured from when it really happened.
        await runDue(
          () => target,
          (at) => {
            if (at > now()) moveTo(at);
          },
        );
        moveTo(target);
      }).finally(rearm);
    },
    freeze() {
      frozenAt = now();
      rearm();
    },
    get offsetMs() {
      return frozenAt !== undefined ? frozenAt - source() : offset;
    },
    get frozen() {
      return frozenAt !== undefined;
    },
    settle() {
      return exclusive(() => runDue(now));
    },
    reset() {
      tasks.clear();
      offset = 0;
      frozenAt = options.frozenAt;
      rearm();
    },
    dispose() {
      if (options.timers && wakeHandle !== undefined) options.timers.clear(wakeHandle);
      wakeHandle = undefined;
    },
  };

  function moveTo(at: number) {
    if (frozenAt !== undefined) frozenAt = at;
    else offset = at - source();
  }

  return clock;
}
