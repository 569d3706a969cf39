import { isHttpUrl } from "../src/core/iri.js";
import type { ControlHandlers, MockControl } from "../src/generated/mock-control-methods.js";
import type { ControlOutput } from "./control/operations.js";
import { worldMethods } from "./control/world-methods.js";
import { announcingDashboard, announcingRebuild } from "./domain/changes.js";
import {
  type Clock,
  ClockLimitError,
  clockBehind,
  clockView,
  createClock,
  type MockClock,
  type TimerPort,
} from "./domain/clock.js";
import { createDashboardDomain, type DashboardDomain } from "./domain/dashboard/index.js";
import { DomainError, validationFailed } from "./domain/errors.js";
import {
  checkedRules,
  type FaultRule,
  type FaultSettings,
  NO_FAULTS,
  takeRule,
  withFaults,
} from "./domain/faults.js";
import { cryptoRandom, type Random } from "./domain/random.js";
import {
  type CallbackDelivery,
  type CallbackTransport,
  createRebuildDomain,
  type RebuildDomain,
} from "./domain/rebuild/index.js";
import { createRequestJournal, type RequestJournal } from "./domain/request-journal.js";
import { checkSeed, completeSeed, inDefaultLists, type MockSeed, seedError } from "./domain/seed.js";
import { EARLIEST_TIME_MS, formatInstant, formatTimestamp, LATEST_TIME_MS } from "./domain/timestamp.js";
import { readWorldSnapshot, SNAPSHOT_VERSION } from "./domain/world-snapshot.js";
import { CALLBACK_TIMEOUT_MS, createCallbackTransport } from "./http/callback-transport.js";

export type { MockControl } from "../src/generated/mock-control-methods.js";
export type { MockSeed } from "./domain/seed.js";

/** What `createMockWorld` starts from: seed, clock, origin, timings, randomness. Every field has a default. */
export interface MockWorldOptions {
  /** What the world starts from and `reset` returns to (openapi/mock-control.yaml `MockSeed`). */
  seed?: MockSeed;
  /**
   * Default: follows the host's `Date` and wakes itself for due work with its `setTimeout`, both
   * looked up when used, so a test runner's fake timers (vitest, jest, sinon), installed before or
   * after the world was created, drive it. Or a frozen clock (`createClock({ frozenAt })`), which
   * moves only through `advance`.
   */
  clock?: MockClock;
  /**
   * The mock's own origin (scheme, host and port, e.g. `http://127.0.0.1:4010`; a trailing slash is
   * dropped): the control API and the built-in webhook sink live under it. Anything else is a TypeError.
   */
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
   * How the world sends completion callbacks, bound for its whole life (decisions/025). Default:
   * to its own built-in sink (`<origin>/__mock/webhook-sink/<partnerId>`) in-process, anywhere else
   * with `fetch` (looked up per call, so MSW sees it), giving each attempt `callbackTimeoutMs`.
   */
  transport?: CallbackTransport;
  /** How long a webhook receiver has to answer a callback with the default transport (default 10 000 ms). */
  callbackTimeoutMs?: number;
  /**
   * Gets errors thrown by scheduled work nobody awaits (a bug in the mock), for the default clock.
   * Default: `console.error`. The world keeps running either way.
   */
  onInternalError?: (error: unknown) => void;
}

/** How `world.restore(snapshot, options)` sets the clock. */
export interface RestoreOptions {
  /**
   * Keep the snapshot's offset from real time instead of its instant, on a clock that follows real
   * time: time went on while the snapshot was on disk, and work that fell due meanwhile runs at
   * once (`--state-file`). Default false: the clock is set to the snapshot's `now`.
   */
  resume?: boolean;
}

/** `GET /__mock/state`: everything as JSON, token secrets and hashes left out. */
export type MockWorldState = ControlOutput<"getMockState">;
export type { MockWorldSnapshot } from "./domain/world-snapshot.js";

/**
 * A mock of both services: what `createHandlers`, `startMockServer` and `startMockWorker` serve. Its
 * domains are internal; this is all of it a test or an app needs. Every reference taken from it
 * stays valid for its whole life, `reset` and `restore` included.
 */
export interface MockWorld extends MockControl {
  /** The mock's own origin: the control API (`/__mock`) and the built-in webhook sink live under it. */
  readonly origin: string;
  /** The virtual clock: `advance({ seconds })` (or a number of ms) runs what falls due (completions, callback retries). */
  readonly clock: MockClock;
  /**
   * Calls `listener` after every change: a request to either API that changed something (a token's
   * `lastUsedAt` included), a control operation, the clock's own work (completions, callback
   * attempts) and reset and restore. Called synchronously, once the change is complete, as often
   * as changes happen (a burst of requests calls it as many times): coalesce before doing real work.
   * Returns a function that removes the listener.
   */
  onChange(listener: () => void): () => void;
}

/** What the adapters reach through a world: its domains (never exported from the package). */
export interface WorldCore {
  /** The whole clock, of which `world.clock` is a view. */
  readonly clock: Clock;
  /** The world's control operations, given inputs already checked: what the control API's routes call. */
  readonly control: ControlHandlers;
  readonly dashboard: DashboardDomain;
  readonly rebuild: RebuildDomain;
  readonly random: Random;
  /** The request journal the dispatcher feeds (decisions/030). */
  readonly journal: RequestJournal;
  faults(): Readonly<FaultSettings>;
  /** The scripted fault rule for one call of `operationId`, used up by being taken (decisions/044). */
  takeRule(operationId: string): FaultRule | undefined;
  /** Sees every callback attempt the world makes, once it ended; returns a function that stops it. */
  observeCallbacks(listener: CallbackListener): () => void;
}

type CallbackListener = (delivery: CallbackDelivery, outcome: { status: number } | { error: string }) => void;

/** A world's origin when none is given, the standalone server's default address (`http://127.0.0.1:4010`). */
export const DEFAULT_ORIGIN = "http://127.0.0.1:4010";

const cores = new WeakMap<MockWorld, WorldCore>();

/** The domains behind a world `createMockWorld` made (TypeError for anything else). */
export function coreOf(world: MockWorld): WorldCore {
  const core = cores.get(world);
  if (!core) throw new TypeError("not a mock world: create one with createMockWorld()");
  return core;
}

/**
 * The host's timers and time, looked up on `globalThis` each time they are used, never captured: a
 * test runner's fake timers (vitest, jest, sinon) installed before or after the world was created
 * drive its completions, deliveries and rate windows (decisions/044). Each handle is cleared with the
 * `clearTimeout` of the timers that set it, so switching between real and fake timers never hands one
 * a handle of the other.
 */
const hostTime = () => globalThis.Date.now();
const hostTimers: TimerPort = {
  set: (callback, delayMs) => {
    const { setTimeout: set, clearTimeout: clear } = globalThis;
    const handle = set(callback, delayMs);
    // A pending rebuild must not keep a test process or CLI alive on its own.
    if (typeof handle === "object" && handle && "unref" in handle) handle.unref();
    return () => clear(handle);
  },
  clear: (handle) => (handle as () => void)(),
};

// A clock drives one world: its reset and its scheduled tasks are the world's.
const clocksInUse = new WeakSet<Clock>();

/** `origin` without a trailing slash, when it is an http(s) origin: no path, query, fragment or user info. */
function checkOrigin(origin: string): string {
  const trimmed = String(origin).replace(/\/+$/, "");
  // With no path, a `?` or `#` would start a query or fragment, and an `@` end user info.
  if (isHttpUrl(trimmed) && new URL(trimmed).pathname === "/" && !/[?#@]/.test(trimmed)) return trimmed;
  throw new TypeError(
    `createMockWorld: origin must be an http or https origin such as http://127.0.0.1:4010 (scheme, host and port only), got ${JSON.stringify(origin)}`,
  );
}

/** Creates a mock world; the composition root where real time and randomness enter. */
export function createMockWorld(options: MockWorldOptions = {}): MockWorld {
  const given = options.clock === undefined ? undefined : clockBehind(options.clock);
  if (given && clocksInUse.has(given)) {
    // Its reset and its tasks would be shared: one world's reset would drop the other's completions.
    throw new TypeError("createMockWorld: this clock already drives another world; give each world its own");
  }
  const clock =
    given ??
    createClock({
      source: hostTime,
      timers: hostTimers,
      onTaskError:
        options.onInternalError ?? ((error) => console.error("mock: scheduled work failed:", error)),
    });
  const random = options.random ?? cryptoRandom;
  clocksInUse.add(clock);
  const origin = checkOrigin(options.origin ?? DEFAULT_ORIGIN);
  // Only a missing half means the default: an explicit null is a mistake the schema reports. A copy
  // is checked and kept, so what the caller changes later never reaches a reset unchecked.
  // Lists left out are the default seed's.
  const {
    dashboard: dashboardSeed,
    rebuild: rebuildSeed,
    fromDefault,
  } = completeSeed(checkSeed(structuredClone(options.seed ?? {})));
  /** Loads a domain from the seed; a broken reference, a duplicate or a partner rule is an Error. */
  const loading = <T>(create: () => T): T => {
    try {
      return create();
    } catch (error) {
      if (error instanceof DomainError) {
        throw seedError(inDefaultLists(error.details.fieldErrors ?? [], fromDefault));
      }
      throw error;
    }
  };

  const callbackListeners = new Set<CallbackListener>();
  const send =
    options.transport ??
    createCallbackTransport({
      origin,
      timeoutMs: options.callbackTimeoutMs ?? CALLBACK_TIMEOUT_MS,
      sink: (partnerId, headers, body) => rebuild.sinkReceive(partnerId, headers, body),
    });
  const transport: CallbackTransport = async (delivery) => {
    const outcome = await send(delivery);
    for (const listener of callbackListeners) listener(delivery, outcome);
    return outcome;
  };

  const loadedDashboard = loading(() =>
    createDashboardDomain({
      clock,
      random,
      seed: dashboardSeed,
      ...(options.sha256Hex ? { sha256Hex: options.sha256Hex } : {}),
    }),
  );
  const loadedRebuild = loading(() =>
    createRebuildDomain({
      clock,
      random,
      origin,
      seed: rebuildSeed,
      transport,
      ...(options.rebuildDelayMs === undefined ? {} : { rebuildDelayMs: options.rebuildDelayMs }),
    }),
  );
  // What the public APIs were asked: not state, so neither in snapshots nor restored (decisions/030).
  const journal = createRequestJournal(clock);
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };
  // What the control operations and the APIs' routes call: each change is announced once it is
  // done (domain/changes.ts). reset and restore use the loaded domains and announce once, when the
  // whole world is back.
  const dashboard = announcingDashboard(loadedDashboard, changed);
  const rebuild = announcingRebuild(loadedRebuild, changed);
  // Each world its own settings, never the shared default object.
  let faults: FaultSettings = { ...NO_FAULTS };
  // Scripted fault rules still pending, in the order they apply: neither state nor in snapshots.
  let rules: FaultRule[] = [];
  // The control operations, their inputs checked (decisions/050): the world's methods check them
  // in-process (mocks/control/world-methods.ts), the control routes over HTTP.
  const control: ControlHandlers = {
    resetMock() {
      clock.reset();
      loadedDashboard.reset();
      loadedRebuild.reset();
      faults = { ...NO_FAULTS };
      rules = [];
      journal.clear();
      changed();
    },

    getMockState: () => ({
      now: formatTimestamp(clock.now()),
      clock: { offsetMs: clock.offsetMs, frozen: clock.frozen },
      dashboard: dashboard.state(),
      rebuild: rebuild.state(),
      faults: control.getFaults(),
    }),

    getMockSnapshot: () => ({
      version: SNAPSHOT_VERSION,
      clock: { now: formatInstant(clock.now()), offsetMs: clock.offsetMs },
      dashboard: dashboard.snapshot(),
      rebuild: rebuild.snapshot(),
      faults: { ...faults },
    }),

    restoreMockSnapshot(snapshot, restoreOptions = {}) {
      const read = readWorldSnapshot(snapshot, { dashboard, rebuild });
      // Checked in full: from here nothing can fail, so the world is never left half restored.
      loadedDashboard.restore(read.dashboard);
      clock.reset();
      const resumed = restoreOptions.resume === true && !clock.frozen;
      const at = resumed ? clock.now() + read.offsetMs : read.now;
      clock.setTime(Math.min(LATEST_TIME_MS, Math.max(EARLIEST_TIME_MS, at)));
      loadedRebuild.restore(read.rebuild);
      faults = read.faults;
      // Rules script the requests to come of a session, not state to carry on (decisions/044).
      rules = [];
      // Entries from before would sit on another timeline (the clock may have gone back).
      journal.clear();
      changed();
    },

    async advanceClock({ seconds }) {
      try {
        await clock.advance(seconds * 1000);
      } catch (error) {
        if (!(error instanceof ClockLimitError)) throw error;
        // The schema's own maximum says "must be at most N"; this limit moves, so it names its unit.
        const left = Math.floor(error.maxMs / 1000);
        throw validationFailed([
          {
            type: "too_big",
            path: "seconds",
            message: `must be at most ${left} ${left === 1 ? "second" : "seconds"} (the clock stops at 9999-12-31T23:59:59Z)`,
          },
        ]);
      }
      // The clock moved even when no work fell due.
      changed();
      return { now: formatTimestamp(clock.now()) };
    },

    upsertPartner: (partnerId, settings) => rebuild.upsertPartner(partnerId, settings),

    rotatePartnerKey: (partnerId) => rebuild.rotateKey(partnerId),

    completeRebuild: (requestId, outcome) => rebuild.complete(requestId, outcome),

    cloneRebuild: (requestId, body) => rebuild.clone(requestId, body),

    openMagicLink: (body) => rebuild.openMagicLink(body),

    listDeliveries: () => ({ data: rebuild.deliveries() }),

    listSinkEntries: (partnerId) => ({ data: rebuild.sinkList(partnerId) }),

    getFaults: () => ({ ...faults, rules: structuredClone(rules) }),

    setFaults(patch) {
      // Both checked before either changes: a refused body changes nothing.
      const next = withFaults(faults, patch);
      const nextRules = patch.rules === undefined ? rules : checkedRules(patch.rules);
      faults = next;
      rules = nextRules;
      changed();
      return control.getFaults();
    },

    listRequests({ body, ...filters }) {
      return journal.list(body === undefined ? filters : { ...filters, body: bodyPattern(body) });
    },
  };

  const world: MockWorld = {
    origin,
    clock: clockView(clock),
    ...worldMethods(control),

    onChange(listener) {
      listeners.add(listener);
      const stop = clock.onTaskDone(listener);
      return () => {
        listeners.delete(listener);
        stop();
      };
    },
  };

  cores.set(world, {
    clock,
    control,
    dashboard,
    rebuild,
    random,
    journal,
    faults: () => faults,
    takeRule(operationId) {
      const rule = takeRule(rules, operationId);
      if (rule) changed();
      return rule;
    },
    observeCallbacks(listener) {
      callbackListeners.add(listener);
      return () => callbackListeners.delete(listener);
    },
  });
  return world;
}

/** `GET /__mock/requests?body=`'s JSON text, parsed; VALIDATION_FAILED at `body` when it is not JSON. */
function bodyPattern(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw validationFailed([{ type: "invalid_format", path: "body", message: "must be JSON" }]);
  }
}
