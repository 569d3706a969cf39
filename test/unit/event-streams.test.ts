// The console's event hub (mocks/http/event-streams.ts) on a fake clock and fake answers: changes
// are coalesced into at most one event per 200 ms, the world is listened to only while a stream is
// open, idle streams get heartbeats, the cap holds, and a client that stops reading is let go: at
// once past 64 KiB, after a heartbeat interval with bytes waiting, or when a new stream needs its slot.
import { describe, expect, it } from "vitest";
import {
  type ChangedPath,
  createEventHub,
  EVICT_AFTER_MS,
  HEARTBEAT_MS,
  MAX_EVENT_STREAMS,
  type StreamTarget,
} from "../../mocks/http/event-streams.js";

function fakeTimers() {
  let now = 0;
  let next = 1;
  const pending = new Map<number, { at: number; run: () => void }>();
  return {
    timers: {
      set: (run: () => void, delayMs: number) => {
        const id = next++;
        pending.set(id, { at: now + delayMs, run });
        return id;
      },
      clear: (handle: unknown) => {
        pending.delete(handle as number);
      },
      now: () => now,
    },
    /** Moves time on, running what falls due in order. */
    advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const due = [...pending].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        pending.delete(due[0]);
        now = due[1].at;
        due[1].run();
      }
      now = until;
    },
    get scheduled() {
      return pending.size;
    },
  };
}

/** An answer whose client reads everything at once, or (`reading` false) nothing until `drain`. */
function fakeTarget(reading = true) {
  let written = "";
  let buffered = 0;
  let onClose: (() => void) | undefined;
  const target: StreamTarget & { destroyed: boolean } = {
    destroyed: false,
    write(chunk) {
      written += chunk;
      if (!reading) buffered += chunk.length;
      return true;
    },
    get writableLength() {
      return buffered;
    },
    destroy() {
      target.destroyed = true;
      onClose?.();
    },
    once(event, listener) {
      if (event === "close") onClose = listener;
      return target;
    },
  };
  return {
    target,
    /** The `data` of every event written so far. */
    events: () => [...written.matchAll(/^event: change\ndata: (.*)$/gm)].map((m) => JSON.parse(m[1] ?? "")),
    text: () => written,
    /** The client read what was written. */
    drain: () => {
      buffered = 0;
    },
    /** The client went away. */
    close: () => onClose?.(),
  };
}

function hubWithWorld(options: Parameters<typeof createEventHub>[1] = {}) {
  const clock = fakeTimers();
  let listener: ((path: ChangedPath) => void) | undefined;
  let subscriptions = 0;
  const hub = createEventHub(
    (changed) => {
      subscriptions++;
      listener = changed;
      return () => {
        subscriptions--;
        listener = undefined;
      };
    },
    options,
    clock.timers,
  );
  return {
    hub,
    clock,
    /** What the world would say after a change. */
    change: (path: ChangedPath = "/state") => listener?.(path),
    subscriptions: () => subscriptions,
  };
}

describe("the console's event hub", () => {
  it("tells a new stream to read everything at once, then one event per change", () => {
    const { hub, clock, change } = hubWithWorld();
    const client = fakeTarget();
    expect(hub.open(client.target)).toBe(true);
    expect(client.text()).toMatch(/^retry: \d+\n\n/);
    expect(client.events()).toEqual([{ changed: ["/state", "/requests"] }]);

    change();
    // Not synchronously, inside the operation that changed something, but on the next turn.
    expect(client.events()).toHaveLength(1);
    clock.advance(0);
    expect(client.events()).toEqual([{ changed: ["/state", "/requests"] }, { changed: ["/state"] }]);
  });

  it("coalesces a burst into at most one event per 200 ms, naming each path once", () => {
    const { hub, clock, change } = hubWithWorld();
    const client = fakeTarget();
    hub.open(client.target);
    for (let i = 0; i < 500; i++) {
      change("/state");
      hub.changed("/requests");
    }
    clock.advance(0);
    expect(client.events().slice(1)).toEqual([{ changed: ["/state", "/requests"] }]);

    // 5 s of changes, one every 10 ms: 25 windows of 200 ms, so at most 25 events.
    for (let i = 0; i < 500; i++) {
      change();
      clock.advance(10);
    }
    clock.advance(1000);
    const burst = client.events().slice(2);
    expect(burst.length).toBeGreaterThanOrEqual(24);
    expect(burst.length).toBeLessThanOrEqual(26);
    expect(burst.every((event) => JSON.stringify(event) === '{"changed":["/state"]}')).toBe(true);
    // Nothing is left pending once it is quiet.
    expect(clock.scheduled).toBe(1); // the heartbeat
  });

  it("listens to the world only while a stream is open, and lets go when the last client leaves", () => {
    const { hub, clock, subscriptions } = hubWithWorld();
    expect(subscriptions()).toBe(0);
    hub.changed("/requests");
    expect(clock.scheduled).toBe(0);

    const a = fakeTarget();
    const b = fakeTarget();
    hub.open(a.target);
    hub.open(b.target);
    expect(subscriptions()).toBe(1);
    expect(hub.size).toBe(2);
    a.close();
    expect(subscriptions()).toBe(1);
    b.close();
    expect(subscriptions()).toBe(0);
    expect(hub.size).toBe(0);
    // No timer is left: no heartbeat, no pending event.
    expect(clock.scheduled).toBe(0);
  });

  it("keeps idle streams open with heartbeat comments", () => {
    const { hub, clock } = hubWithWorld();
    const client = fakeTarget();
    hub.open(client.target);
    clock.advance(HEARTBEAT_MS * 3);
    expect(client.text().match(/^: heartbeat$/gm)).toHaveLength(3);
  });

  it("refuses a stream past the cap (16 by default) until one closes", () => {
    const { hub } = hubWithWorld();
    expect(hub.capacity).toBe(MAX_EVENT_STREAMS);
    const clients = Array.from({ length: MAX_EVENT_STREAMS }, () => fakeTarget());
    for (const client of clients) expect(hub.open(client.target)).toBe(true);
    expect(hub.full).toBe(true);
    const late = fakeTarget();
    expect(hub.open(late.target)).toBe(false);
    expect(late.text()).toBe("");
    clients[0]?.close();
    expect(hub.open(late.target)).toBe(true);
  });

  it("lets go of a client that stops reading instead of buffering for it", () => {
    const { hub, clock, change } = hubWithWorld();
    const reader = fakeTarget();
    const stalled = fakeTarget(false);
    hub.open(reader.target);
    hub.open(stalled.target);
    for (let i = 0; i < 2000 && !stalled.target.destroyed; i++) {
      change();
      clock.advance(200);
    }
    expect(stalled.target.destroyed).toBe(true);
    expect(reader.target.destroyed).toBe(false);
    expect(hub.size).toBe(1);
  });

  it("closes a stream nothing was read from for a whole heartbeat interval, without any change (issue 22, point 11)", () => {
    const { hub, clock } = hubWithWorld();
    const reader = fakeTarget();
    const silent = fakeTarget(false);
    const slow = fakeTarget(false);
    hub.open(reader.target);
    hub.open(silent.target);
    hub.open(slow.target);
    clock.advance(HEARTBEAT_MS);
    // The slow client reads between heartbeats: it stays.
    slow.drain();
    clock.advance(HEARTBEAT_MS);
    expect(silent.target.destroyed).toBe(true);
    expect(slow.target.destroyed).toBe(false);
    expect(reader.target.destroyed).toBe(false);
    expect(hub.size).toBe(2);
  });

  it("at the cap, a new stream takes the slot of the most backlogged one at once (issue 22, point 11)", () => {
    const { hub, subscriptions } = hubWithWorld({ maxStreams: 3 });
    const a = fakeTarget();
    const stuck = fakeTarget(false);
    const c = fakeTarget();
    for (const client of [a, stuck, c]) hub.open(client.target);
    expect(hub.full).toBe(false);
    const late = fakeTarget();
    expect(hub.open(late.target)).toBe(true);
    expect(stuck.target.destroyed).toBe(true);
    expect([a, c, late].map((client) => client.target.destroyed)).toEqual([false, false, false]);
    expect(late.events()).toEqual([{ changed: ["/state", "/requests"] }]);
    expect(hub.size).toBe(3);
    expect(subscriptions()).toBe(1);
  });

  it("at the cap, a new stream replaces the oldest once that one is EVICT_AFTER_MS old, not before (issue 22, point 11)", () => {
    const { hub, clock, subscriptions } = hubWithWorld();
    // Sixteen clients whose kernel buffers take every byte and that never read: they look idle.
    const silent = Array.from({ length: MAX_EVENT_STREAMS }, () => fakeTarget());
    for (const client of silent) {
      hub.open(client.target);
      clock.advance(10);
    }
    const newcomer = fakeTarget();
    expect(hub.full).toBe(true);
    expect(hub.open(newcomer.target)).toBe(false);
    clock.advance(EVICT_AFTER_MS - 10 * MAX_EVENT_STREAMS);
    expect(hub.full).toBe(false);
    expect(hub.open(newcomer.target)).toBe(true);
    expect(silent.map((client) => client.target.destroyed)).toEqual([
      true,
      ...Array(MAX_EVENT_STREAMS - 1).fill(false),
    ]);
    expect(hub.size).toBe(MAX_EVENT_STREAMS);
    // The next newcomer replaces the next oldest, once it too is old enough.
    const another = fakeTarget();
    expect(hub.open(another.target)).toBe(false);
    clock.advance(10);
    expect(hub.open(another.target)).toBe(true);
    expect(silent[1]?.target.destroyed).toBe(true);
    expect(newcomer.target.destroyed).toBe(false);
    expect(subscriptions()).toBe(1);
  });

  it("replacing the only stream (maxStreams 1) keeps one subscription and one heartbeat", () => {
    const { hub, clock, subscriptions } = hubWithWorld({ maxStreams: 1, evictAfterMs: 0 });
    const first = fakeTarget();
    const second = fakeTarget();
    hub.open(first.target);
    expect(hub.open(second.target)).toBe(true);
    expect(first.target.destroyed).toBe(true);
    expect(subscriptions()).toBe(1);
    expect(clock.scheduled).toBe(1);
    clock.advance(HEARTBEAT_MS);
    expect(second.text().match(/^: heartbeat$/gm)).toHaveLength(1);
  });

  it("ends every stream and stops every timer when the server closes", () => {
    const { hub, clock, change, subscriptions } = hubWithWorld();
    const a = fakeTarget();
    hub.open(a.target);
    change();
    hub.close();
    expect(a.target.destroyed).toBe(true);
    expect(subscriptions()).toBe(0);
    expect(clock.scheduled).toBe(0);
  });
});
