import { createTaskQueue, type QueuedTask } from "./task-queue.js";
import { clampTime, EARLIEST_TIME_MS, LATEST_TIME_MS } from "./timestamp.js";

/**
 * A mock world's clock as its users see it (`world.clock`, what `createClock` gives): read it, move
 * it forward, freeze it, wait for due work. Its reset and jumps in time belong to the world
 * (`reset`, `restore`), which keeps its state in step with them, and scheduling belongs to the
 * domains: those are the internal `Clock`'s (decisions/025, 047).
 *
 * Time never passes 9999-12-31T23:59:59Z, so every timestamp the mock writes stays RFC 3339.
 */
export interface MockClock {
  /** Current virtual time, epoch milliseconds. */
  now(): number;
  /**
   * Moves virtual time forward and starts every task that falls due, in time order; tasks due
   * together run concurrently. The step is `{ seconds }` (the unit of the control API's
   * `POST /__mock/clock/advance` and `MockControlClient`: `advance({ seconds: 6 })`) or a bare
   * number of milliseconds (`advance(6000)`, kept from before `{ seconds }`). Resolves once every
   * started task (and every task they made due within the step) has settled; rejects with the first
   * error a task threw, after the rest ran. A RangeError for a negative or non-finite step, or a
   * `ClockLimitError` for one that would pass 9999-12-31T23:59:59Z. Advances run one after another;
   * a world's `reset` while one is pending or running cancels it (time stays put).
   */
  advance(step: ClockStep): Promise<void>;
  /** Stops following the time source; time then moves only through `advance`. */
  freeze(): void;
  /** Virtual time minus source time, in ms. */
  readonly offsetMs: number;
  /** Whether the clock is frozen (moves only through `advance`). */
  readonly frozen: boolean;
  /** Resolves once no due task is running (tasks started by the self-wake timer included). */
  settle(): Promise<void>;
  /** Cancels the self-wake timer so a process can exit. */
  dispose(): void;
}

/**
 * The mock's only notion of time: the public `MockClock` plus what the world and its domains use.
 * Domain code reads `now()` and schedules work here; nothing in the domain touches the wall clock,
 * so tests freeze the clock and advance it instead of sleeping. Internal: the package's entry points
 * export `MockClock` only.
 */
export interface Clock extends MockClock {
  /**
   * Runs `task` once the virtual time reaches `atMs` (at most `LATEST_TIME_MS`). While its
   * synchronous part runs, `now()` reads that time (also when it runs late). Returns a function
   * that cancels it.
   */
  schedule(atMs: number, task: () => void | Promise<void>): () => void;
  /** Back to following the source with offset 0 (or frozen at `frozenAt`); pending and running tasks are forgotten. */
  reset(): void;
  /** Sets the virtual time (a restored snapshot): frozen, the frozen instant; otherwise the offset. */
  setTime(atMs: number): void;
  /**
   * Starts a stopwatch of virtual time that passes by itself: source time while the clock follows
   * the source, none while frozen (advances are not counted). What a callback receiver's real
   * response time counts as (decisions/018).
   */
  stopwatch(): () => number;
  /**
   * Calls `listener` after each task's synchronous part ran and, for a task that goes on
   * asynchronously (a callback attempt), again once it settled: what changed becomes visible at
   * once (a rebuild's new status) and again when the rest is done. Returns a function that removes it.
   */
  onTaskDone(listener: () => void): () => void;
}

/** A step of time: `{ seconds }`, or a bare number of milliseconds. */
export type ClockStep = number | { readonly seconds: number };

/** How an unfrozen clock arms its self-wake: `setTimeout`/`clearTimeout`, or a test's fake timers. */
export interface TimerPort {
  /** Calls `callback` once after `delayMs` ms; returns a handle that `clear` takes. */
  set(callback: () => void, delayMs: number): unknown;
  /** Cancels the callback `set` returned `handle` for, if it has not run yet. */
  clear(handle: unknown): void;
}

/** How `createClock` makes a clock: where time comes from, frozen or not, and how it wakes itself. */
export interface ClockOptions {
  /** Where real time comes from; supplied by the entry point (usually `Date.now`). */
  source?: () => number;
  /** Starts frozen at this epoch-ms time. */
  frozenAt?: number;
  /** Lets an unfrozen clock wake itself when the next task falls due; without it only `advance` runs tasks. */
  timers?: TimerPort;
  /**
   * Gets every error a task throws. Tasks started by `advance` or `settle` also reject that call;
   * ones started by the self-wake timer have nobody else to tell, and the timer never throws.
   */
  onTaskError?: (error: unknown) => void;
}

/** What `advance` rejects with when it would pass `LATEST_TIME_MS`; the clock did not move. */
export class ClockLimitError extends RangeError {
  override readonly name = "ClockLimitError";
  /** The longest advance that was possible, in ms. */
  readonly maxMs: number;

  /** For an advance of `ms` milliseconds asked for at virtual time `now` (epoch ms). */
  constructor(ms: number, now: number) {
    super(`advance(${ms}) would move the clock past 9999-12-31T23:59:59Z`);
    this.maxMs = Math.max(0, LATEST_TIME_MS - now);
  }
}

// Longest single host timer (about 24.8 days); later wake-ups are re-armed in steps.
const MAX_TIMER_MS = 2_147_483_647;

// Every clock made here and every view of one: what `clockBehind` accepts (decisions/047).
const made = new WeakSet<object>();
const views = new WeakMap<MockClock, Clock>();

/** A clock (the whole, internal one); the entry points hand out its view (mocks/clock.ts). */
export function createClock(options: ClockOptions = {}): Clock {
  const source = options.source ?? (() => 0);
  checkInstant(options.frozenAt, "frozenAt");
  let frozenAt = options.frozenAt;
  let offset = 0;
  const tasks = createTaskQueue();
  let seq = 0;
  let wakeHandle: unknown;
  // The source time the wake timer is set for, so scheduling a later task leaves the timer alone.
  let wakeAtSource: number | undefined;
  // Bumped by reset: work of an older generation neither moves the clock nor counts as in flight.
  let generation = 0;
  let inFlight = new Set<Promise<void>>();
  // Advances run one after another, so "advance 5 s" twice always means 10 s.
  let advancing: Promise<void> = Promise.resolve();
  // While a task's synchronous part runs, the time it was due (it may be starting late).
  let standing: number | undefined;
  const listeners = new Set<() => void>();

  const followed = () => (frozenAt !== undefined ? frozenAt : Math.min(source() + offset, LATEST_TIME_MS));
  const now = () => standing ?? followed();

  const notify = () => {
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        options.onTaskError?.(error);
      }
    }
  };

  const takeDue = (until: number): QueuedTask | undefined => {
    const next = tasks.peek();
    return next !== undefined && next.at <= until ? tasks.take() : undefined;
  };

  /** Runs a task's synchronous part at its due time and keeps its asynchronous rest in flight. */
  const start = (task: QueuedTask, errors: unknown[] | undefined) => {
    const fail = (error: unknown) => {
      errors?.push(error);
      options.onTaskError?.(error);
    };
    let result: void | Promise<void>;
    standing = task.at < followed() ? task.at : undefined;
    try {
      result = task.run();
    } catch (error) {
      fail(error);
      notify();
      return;
    } finally {
      standing = undefined;
    }
    if (!(result instanceof Promise)) {
      notify();
      return;
    }
    const running = inFlight;
    const done = () => {
      running.delete(settled);
      notify();
    };
    // One promise per task, not a `then` and a `finally`: every completion of a busy mock runs here.
    const settled: Promise<void> = result.then(done, (error: unknown) => {
      try {
        fail(error);
      } finally {
        done();
      }
    });
    running.add(settled);
    notify();
  };

  /** Starts every task due by `until`, moving the clock to each one's time when `move` is set. */
  const startDue = (until: () => number, move: boolean, errors?: unknown[]) => {
    for (let task = takeDue(until()); task; task = takeDue(until())) {
      if (move && task.at > followed()) moveTo(task.at);
      start(task, errors);
    }
  };

  /** Runs due work until nothing due by `until` is left and nothing is in flight, or a reset came. */
  const drain = async (until: () => number, move: boolean, started: number): Promise<unknown[]> => {
    const errors: unknown[] = [];
    for (;;) {
      startDue(until, move, errors);
      if (generation !== started || inFlight.size === 0) return errors;
      await Promise.race(inFlight);
      if (generation !== started) return errors;
    }
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
      // Starts what is due and returns: a slow task never holds back one due later.
      try {
        startDue(followed, false);
      } catch (error) {
        options.onTaskError?.(error);
      }
      rearm();
    }, delay);
  };

  const firstError = (errors: unknown[]) => {
    if (errors.length > 0) throw errors[0];
  };

  const clock: Clock = {
    now,
    schedule(atMs, task) {
      // Time stops at LATEST_TIME_MS: work due later falls due then.
      const cancel = tasks.push({ at: clampTime(atMs), seq: seq++, run: task });
      rearm();
      return () => {
        cancel();
        rearm();
      };
    },
    advance(by) {
      const ms = typeof by === "number" ? by : Number(by?.seconds) * 1000;
      if (!Number.isFinite(ms) || ms < 0) {
        const given = typeof by === "number" ? `${by} ms` : `{ seconds: ${by?.seconds} }`;
        return Promise.reject(
          new RangeError(
            `advance() takes { seconds } or a number of ms, finite and not negative, got ${given}`,
          ),
        );
      }
      const asked = generation;
      const step = async () => {
        if (generation !== asked) return;
        const target = followed() + ms;
        if (target > LATEST_TIME_MS) throw new ClockLimitError(ms, followed());
        const errors = await drain(() => target, true, asked);
        if (generation !== asked) return;
        if (target > followed()) moveTo(target);
        firstError(errors);
      };
      const run = advancing.then(step, step).finally(rearm);
      advancing = run.catch(() => undefined);
      return run;
    },
    freeze() {
      frozenAt = followed();
      rearm();
    },
    get offsetMs() {
      return frozenAt !== undefined ? frozenAt - source() : offset;
    },
    get frozen() {
      return frozenAt !== undefined;
    },
    async settle() {
      firstError(await drain(followed, false, generation));
    },
    reset() {
      generation++;
      tasks.clear();
      inFlight = new Set();
      offset = 0;
      frozenAt = options.frozenAt;
      rearm();
    },
    setTime(atMs) {
      checkInstant(atMs, "setTime()");
      moveTo(atMs);
      rearm();
    },
    stopwatch() {
      const started = source();
      return () => (frozenAt !== undefined ? 0 : Math.max(0, source() - started));
    },
    onTaskDone(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
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

  made.add(clock);
  return clock;
}

/** The public view of `clock`: only `MockClock`'s members, so no cast reaches `reset` or `setTime`. */
export function clockView(clock: Clock): MockClock {
  const view: MockClock = {
    now: () => clock.now(),
    advance: (step) => clock.advance(step),
    freeze: () => clock.freeze(),
    settle: () => clock.settle(),
    dispose: () => clock.dispose(),
    get offsetMs() {
      return clock.offsetMs;
    },
    get frozen() {
      return clock.frozen;
    },
  };
  views.set(view, clock);
  return view;
}

/** The whole clock behind a view `clockView` made, or a clock `createClock` made; a TypeError for anything else. */
export function clockBehind(clock: MockClock): Clock {
  const whole = views.get(clock) ?? (made.has(clock) ? (clock as Clock) : undefined);
  if (!whole) throw new TypeError("createMockWorld: clock must be one createClock() made");
  return whole;
}

function checkInstant(at: number | undefined, what: string): void {
  if (at === undefined) return;
  if (!Number.isFinite(at) || at < EARLIEST_TIME_MS || at > LATEST_TIME_MS) {
    throw new RangeError(`${what} must be an epoch-ms time in years 0000 to 9999, got ${at}`);
  }
}
