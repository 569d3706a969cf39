import { type Clock, createClock } from "./domain/clock.js";
import {
  createDashboardDomain,
  type DashboardDomain,
  type DashboardSeed,
  defaultDashboardSeed,
} from "./domain/dashboard/index.js";
import { type FaultSettings, NO_FAULTS } from "./domain/faults.js";
import { cryptoRandom, type Random } from "./domain/random.js";
import {
  type CallbackTransport,
  createRebuildDomain,
  defaultRebuildSeed,
  type RebuildDomain,
  type RebuildSeed,
} from "./domain/rebuild/index.js";
import { formatTimestamp } from "./domain/timestamp.js";

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
  /** Back to the seed: state, deliveries, the sink and faults cleared, the clock offset back to 0. */
  reset(): void;
  snapshot(): {
    now: string;
    dashboard: ReturnType<DashboardDomain["snapshot"]>;
    rebuild: ReturnType<RebuildDomain["snapshot"]>;
    faults: FaultSettings;
  };
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
  const clock = options.clock ?? createClock({ source: Date.now, timers: realTimers });
  const random = options.random ?? cryptoRandom;
  const origin = (options.origin ?? DEFAULT_ORIGIN).replace(/\/+$/, "");
  // Only a missing half means the default: an explicit null is a mistake the seed checks report.
  const { dashboard: dashboardSeed = defaultDashboardSeed, rebuild: rebuildSeed = defaultRebuildSeed } =
    options.seed ?? {};
  let transport: CallbackTransport = async () => ({
    error: "no transport attached: the world is not served",
  });

  const { sha256Hex } = options;
  const newDashboard = () =>
    createDashboardDomain({ clock, random, seed: dashboardSeed, ...(sha256Hex ? { sha256Hex } : {}) });
  let dashboard = newDashboard();
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
    },
    snapshot() {
      return {
        now: formatTimestamp(clock.now()),
        dashboard: dashboard.snapshot(),
        rebuild: rebuild.snapshot(),
        faults: this.faults,
      };
    },
  };
}
