// The clock as the package exports it: `createClock` gives the `MockClock` view, never the whole
// internal clock (its `reset`, `setTime` and scheduling belong to the world, decisions/025, 047).
import {
  type ClockOptions,
  clockView,
  createClock as createWholeClock,
  type MockClock,
} from "./domain/clock.js";

/**
 * A clock for `createMockWorld({ clock })` or `startMockServer({ clock })`; one clock drives one
 * world. `createClock({ frozenAt })` starts frozen at that epoch-ms time and moves only through
 * `advance`; with no options it reads 0 (the epoch) and never wakes itself, so a world's default
 * clock (following the host's `Date`) is what to use for real time.
 */
export function createClock(options: ClockOptions = {}): MockClock {
  return clockView(createWholeClock(options));
}
