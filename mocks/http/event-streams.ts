// The console's live events (`GET /__mock/events`, decisions/032): server-sent events that say which
// control paths to read again. One hub per server: it listens to the world only while a stream is
// open, coalesces changes into at most one event per COALESCE_MS of real time, keeps idle streams
// alive with comment lines, caps how many streams are open and lets go of every listener and timer
// when a client leaves. A client that reads nothing holds no slot for long (issue 22, point 11): a
// stream whose answer is still waiting to be sent after a whole heartbeat interval is closed (the
// write deadline), and at the cap a new stream takes the slot of the most backlogged one, or else of
// the oldest open for at least EVICT_AFTER_MS; the kernel's buffers would hide a silent client from
// the first rule for hours, not from the second.
import type { components } from "../../src/generated/mock-control.js";
import type { TimerPort } from "../domain/clock.js";

type ChangeEvent = components["schemas"]["ChangeEvent"];
/** A control path a change event names (`/state`, `/requests`). */
export type ChangedPath = ChangeEvent["changed"][number];

/** At most one event per this much real time, however many changes happen in it. */
const COALESCE_MS = 200;
/** How often an idle stream gets a comment line, so proxies and browsers keep it open. */
export const HEARTBEAT_MS = 15_000;
/** Streams open at once; each console tab holds one. */
export const MAX_EVENT_STREAMS = 16;
/** What a refused client is told to wait before trying again (seconds). */
export const STREAM_RETRY_AFTER_SECONDS = 10;
/** How long a browser waits before reconnecting a dropped stream (the `retry` field, ms). */
const RECONNECT_MS = 2_000;
/** A client that stopped reading is let go once this much is waiting for it. */
const MAX_BUFFERED_BYTES = 64 * 1024;
/** At the cap, a stream open at least this long may be closed to make room for a new one (its browser reconnects). */
export const EVICT_AFTER_MS = 5_000;
const EVERY_PATH: readonly ChangedPath[] = ["/state", "/requests"];

/** The part of a node:http answer a stream writes to. */
export interface StreamTarget {
  readonly destroyed: boolean;
  write(chunk: string): boolean;
  readonly writableLength: number;
  /** Ends the answer (the server stops, or the client stopped reading). */
  destroy(): void;
  once(event: "close", listener: () => void): unknown;
}

/** Limits of the console's live event streams (`GET /__mock/events`), `startMockServer({ events })`. */
export interface EventStreamOptions {
  /** Streams open at once (default `MAX_EVENT_STREAMS`, 16); the next is refused. */
  maxStreams?: number;
  /** Real milliseconds between comment lines on every stream (default `HEARTBEAT_MS`, 15 s). */
  heartbeatMs?: number;
  /**
   * At the cap, a new stream closes the oldest one open at least this many real milliseconds
   * (default `EVICT_AFTER_MS`, 5 s); only when every stream is younger is it refused.
   */
  evictAfterMs?: number;
}

/** The clock's timer port, and where real time comes from (heartbeats and coalescing are real time). */
interface Timers extends TimerPort {
  now(): number;
}

export interface EventHub {
  /**
   * Starts a stream on an answer whose status and headers are written: the reconnection delay and a
   * first event naming every path (read everything now). At the cap it closes another stream to make
   * room (see `full`); false, writing nothing, when none may be closed.
   */
  open(target: StreamTarget): boolean;
  /** Something `path` shows changed: every open stream gets an event, coalesced. */
  changed(path: ChangedPath): void;
  /** Streams open now. */
  readonly size: number;
  /** How many streams may be open at once. */
  readonly capacity: number;
  /** No other stream may open now: at the cap, and none may be closed to make room. */
  readonly full: boolean;
  /** Ends every stream and stops every timer (the server is closing). */
  close(): void;
}

/**
 * A hub of event streams. `subscribe` is called when the first stream opens and the function it
 * returns when the last one closes: the world's listener exists only while someone listens.
 */
export function createEventHub(
  subscribe: (changed: (path: ChangedPath) => void) => () => void,
  options: EventStreamOptions = {},
  timers: Timers = realTimers,
): EventHub {
  const maxStreams = options.maxStreams ?? MAX_EVENT_STREAMS;
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const evictAfterMs = options.evictAfterMs ?? EVICT_AFTER_MS;
  /** Open streams, oldest first: when each opened, and whether bytes were waiting for it at the last heartbeat. */
  const streams = new Map<StreamTarget, { openedAt: number; backlogged: boolean }>();
  const pending = new Set<ChangedPath>();
  let unsubscribe: (() => void) | undefined;
  let flushTimer: unknown;
  let heartbeatTimer: unknown;
  let lastSentAt = Number.NEGATIVE_INFINITY;

  const send = (target: StreamTarget, text: string) => {
    // Gone, and about to be removed: its "close" comes on a later turn.
    if (target.destroyed) return;
    target.write(text);
    // A client that does not read would make the mock buffer without end.
    if (target.writableLength > MAX_BUFFERED_BYTES) target.destroy();
  };
  const broadcast = (text: string) => {
    for (const target of streams.keys()) send(target, text);
  };
  /** The stream a new one may replace at the cap: the most backlogged, else the oldest old enough. */
  const victim = (): StreamTarget | undefined => {
    let most: StreamTarget | undefined;
    for (const target of streams.keys()) {
      if (target.writableLength > (most?.writableLength ?? 0)) most = target;
    }
    if (most) return most;
    const [oldest] = streams;
    return oldest && timers.now() - oldest[1].openedAt >= evictAfterMs ? oldest[0] : undefined;
  };
  const event = (paths: Iterable<ChangedPath>) => {
    const data: ChangeEvent = { changed: [...paths] };
    return `event: change\ndata: ${JSON.stringify(data)}\n\n`;
  };

  const flush = () => {
    flushTimer = undefined;
    if (pending.size === 0) return;
    lastSentAt = timers.now();
    const text = event(pending);
    pending.clear();
    broadcast(text);
  };
  const heartbeat = () => {
    for (const [target, state] of streams) {
      // The write deadline: bytes still waiting a whole interval after the last heartbeat found
      // some waiting. Its "close" removes it.
      if (state.backlogged && target.writableLength > 0) {
        target.destroy();
        continue;
      }
      send(target, ": heartbeat\n\n");
      state.backlogged = target.writableLength > 0;
    }
    heartbeatTimer = timers.set(heartbeat, heartbeatMs);
  };
  const changed = (path: ChangedPath) => {
    if (streams.size === 0) return;
    pending.add(path);
    if (flushTimer !== undefined) return;
    // The first change after a quiet spell goes out on the next turn of the event loop (after the
    // answer that made it); later ones wait for the rest of the window.
    flushTimer = timers.set(flush, Math.max(0, lastSentAt + COALESCE_MS - timers.now()));
  };

  const stop = () => {
    if (flushTimer !== undefined) timers.clear(flushTimer);
    if (heartbeatTimer !== undefined) timers.clear(heartbeatTimer);
    flushTimer = undefined;
    heartbeatTimer = undefined;
    pending.clear();
    unsubscribe?.();
    unsubscribe = undefined;
  };

  return {
    open(target) {
      if (streams.size >= maxStreams) {
        const replaced = victim();
        if (!replaced) return false;
        // Gone from the count now; its "close" (a later turn) finds it gone.
        streams.delete(replaced);
        replaced.destroy();
      }
      streams.set(target, { openedAt: timers.now(), backlogged: false });
      target.once("close", () => {
        streams.delete(target);
        if (streams.size === 0) stop();
      });
      // The first stream, or the only one after replacing the only one (maxStreams 1).
      if (unsubscribe === undefined) {
        unsubscribe = subscribe(changed);
        heartbeatTimer = timers.set(heartbeat, heartbeatMs);
      }
      send(target, `retry: ${RECONNECT_MS}\n\n${event(EVERY_PATH)}`);
      return true;
    },
    changed,
    get size() {
      return streams.size;
    },
    capacity: maxStreams,
    get full() {
      return streams.size >= maxStreams && victim() === undefined;
    },
    close() {
      for (const target of [...streams.keys()]) target.destroy();
      streams.clear();
      stop();
    },
  };
}

const realTimers: Timers = {
  set: (callback, delayMs) => setTimeout(callback, delayMs),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => performance.now(),
};
