import { type Clock, createClock } from "./domain/clock.js";
import {
  createDashboardDomain,
  type DashboardDomain,
  type DashboardSeed,
  type DashboardSnapshot,
  type DashboardState,
  defaultDashboardSeed,
} from "./domain/dashboard/index.js";
import { DomainError, validationFailed } from "./domain/errors.js";
import { type FaultSettings, NO_FAULTS } from "./domain/faults.js";
import { cryptoRandom, type Random } from "./domain/random.js";
import {
  type CallbackTransport,
  createRebuildDomain,
  defaultRebuildSeed,
  type RebuildDomain,
  type RebuildSeed,
  type RebuildState,
} from "./domain/rebuild/index.js";
import { EARLIEST_TIME_MS, formatInstant, formatTimestamp, LATEST_TIME_MS } from "./domain/timestamp.js";
import { type MockWorldSnapshot, readWorldSnapshot, SNAPSHOT_VERSION } from "./world-snapshot.js";

/** What a mock world starts from (and `reset` returns to). Either half may be left out for its default. */
export interface MockSeed {
  dashboard?: DashboardSeed;
  rebuild?: RebuildSeed;
}

export interface MockWorldOptions {
  seed?: MockSeed;
  /** Default: follows real time and wakes itself for due work. Tests pass a frozen clock. */
  clock?: Clock;
  /** The mock's own origin: the control API and the built-in webhook sink live under it. */
  origin?: string;
  /** How long a rebuild runs on the clock before completing (default 5000 ms). */
  rebuildDelayMs?: number;
  random?: Random;
  /**
   * SHA-256 of a UTF-8 string as lowercase hex, used to store and look up API token secrets.
   * Default: a pure-JS implementation that runs anywhere; `startMockServer` passes node:crypto's.
   * Any implementation gives the same digests, so seeds and tokens behave the same.
   */
  sha256Hex?: (text: string) => string;
  /**
   * Gets errors thrown by scheduled work nobody awaits (a bug in the mock), for the default clock.
   * Default: `console.error`. The world keeps running either way.
   */
  onInternalError?: (error: unknown) => void;
}

/** `GET /__mock/state`: everything as JSON, token secrets and hashes left out. */
export interface MockWorldState {
  now: string;
  dashboard: DashboardState;
  rebuild: RebuildState;
  faults: FaultSettings;
}

export interface RestoreOptions {
  /**
   * Keep the snapshot's offset from real time instead of its instant, on a clock that follows real
   * time: time went on while the snapshot was on disk, and work that fell due meanwhile runs at
   * once (`--state-file`). Default false: the clock is set to the snapshot's `now`.
   */
  resume?: boolean;
}

/** The whole mock's state and rules: both APIs' domains, the clock and the fault settings. */
export interface MockWorld {
  readonly clock: Clock;
  readonly origin: string;
  readonly random: Random;
  readonly dashboard: DashboardDomain;
  readonly rebuild: RebuildDomain;
  faults: FaultSettings;
  /**
   * Sets how callbacks leave the world. The HTTP adapters attach one that delivers to the mock's
   * own sink in-process and to every other URL with fetch.
   */
  useTransport(transport: CallbackTransport): void;
  /**
   * Back to the seed: state, deliveries, the sink and faults cleared, the clock offset back to 0.
   * It wins over an advance or a delivery in flight: neither moves the clock or records afterwards.
   */
  reset(): void;
  /** Everything as JSON for looking at (`GET /__mock/state`); holds no secret and no hash. */
  state(): MockWorldState;
  /** Everything needed to carry on later, as JSON (`GET /__mock/snapshot`, `--state-file`). */
  snapshot(): MockWorldSnapshot;
  /**
   * Replaces the whole world with a snapshot (parsed JSON), pending work included. Throws a
   * VALIDATION_FAILED DomainError listing every bad value by its path, and then changes nothing.
   */
  restore(snapshot: unknown, options?: RestoreOptions): void;
  /** Calls `listener` after anything changed on its own (a task ran) or by reset and restore. */
  onChange(listener: () => void): () => void;
}

export const DEFAULT_ORIGIN = "http://127.0.0.1:4010";

const realTimers = {
  set: (callback: () => void, delayMs: number) => {
    const handle = setTimeout(callback, delayMs);
    // A pending rebuild must not keep a test process or CLI alive on its own.
    if (typeof handle === "object" && handle && "unref" in handle) handle.unref();
    return handle;
  },
  clear: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Creates a mock world; the composition root where real time and randomness enter. */
export function createMockWorld(options: MockWorldOptions = {}): MockWorld {
  const clock =
    options.clock ??
    createClock({
      source: Date.now,
      timers: realTimers,
      onTaskError:
        options.onInternalError ?? ((error) => console.error("mock: scheduled work failed:", error)),
    });
  const random = options.random ?? cryptoRandom;
  const origin = (options.origin ?? DEFAULT_ORIGIN).replace(/\/+$/, "");
  // Only a missing half means the default: an explicit null is a mistake the seed checks report.
  const { dashboard: dashboardSeed = defaultDashboardSeed, rebuild: rebuildSeed = defaultRebuildSeed } =
    options.seed ?? {};
  let transport: CallbackTransport = async () => ({
    error: "no transport attached: the world is not served",
  });

  const { sha256Hex } = options;
  const newDashboard = (snapshot?: DashboardSnapshot) =>
    createDashboardDomain({
      clock,
      random,
      seed: dashboardSeed,
      ...(snapshot ? { snapshot } : {}),
      ...(sha256Hex ? { sha256Hex } : {}),
    });
  let dashboard = newDashboard();
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };
  const rebuild = createRebuildDomain({
    clock,
    random,
    origin,
    seed: rebuildSeed,
    transport: (delivery) => transport(delivery),
    ...(options.rebuildDelayMs === undefined ? {} : { rebuildDelayMs: options.rebuildDelayMs }),
  });

  return {
    clock,
    origin,
    random,
    get dashboard() {
      return dashboard;
    },
    rebuild,
    faults: NO_FAULTS,
    useTransport(next) {
      transport = next;
    },
    reset() {
      clock.reset();
      dashboard = newDashboard();
      rebuild.reset();
      this.faults = NO_FAULTS;
      changed();
    },
    state() {
      return {
        now: formatTimestamp(clock.now()),
        dashboard: dashboard.state(),
        rebuild: rebuild.state(),
        faults: { ...this.faults },
      };
    },
    snapshot() {
      return {
        version: SNAPSHOT_VERSION,
        clock: { now: formatInstant(clock.now()), offsetMs: clock.offsetMs },
        dashboard: dashboard.snapshot(),
        rebuild: rebuild.snapshot(),
        faults: { ...this.faults },
      };
    },
    restore(snapshot, restoreOptions = {}) {
      const checked = readWorldSnapshot(snapshot, { origin, random });
      let next: DashboardDomain;
      try {
        next = newDashboard(checked.dashboard);
      } catch (error) {
        if (error instanceof DomainError) throw error;
        // A broken reference or a duplicate, found while loading: named by the loader's message.
        const message =
          error instanceof Error ? error.message.replace(/^Dashboard seed: /, "") : String(error);
        throw validationFailed([{ type: "invalid_value", path: "dashboard", message }]);
      }
      // Checked in full: from here nothing can fail, so the world is never left half restored.
      clock.reset();
      const resumed = restoreOptions.resume === true && !clock.frozen;
      const at = resumed ? clock.now() + checked.offsetMs : checked.now;
      clock.setTime(Math.min(LATEST_TIME_MS, Math.max(EARLIEST_TIME_MS, at)));
      dashboard = next;
      rebuild.restore(checked.rebuild);
      this.faults = checked.faults;
      changed();
    },
    onChange(listener) {
      listeners.add(listener);
      const stop = clock.onTaskDone(listener);
      return () => {
        listeners.delete(listener);
        stop();
      };
    },
  };
}
