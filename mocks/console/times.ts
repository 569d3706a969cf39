// The mock's clock as the page sees it, and the relative times ("12 s ago", "next slot in 3 min")
// that follow it between two reads of the state. A clock that follows real time moves on by itself;
// a frozen one stands still until advanced.
import type { MockState } from "./control.js";
import { h } from "./dom.js";
import { duration, instant } from "./format.js";

let readAt = 0;
let stateNow = Number.NaN;
let frozen = true;

/** The state's clock, read at `receivedAt` (performance.now()). */
export function followClock(state: MockState, receivedAt: number): void {
  stateNow = Date.parse(state.now);
  frozen = state.clock.frozen;
  readAt = receivedAt;
}

/** The mock's time now, as far as the page knows it. */
export function mockNow(): number {
  return frozen ? stateNow : stateNow + (performance.now() - readAt);
}

/** Real milliseconds until the mock's clock reaches `at`, or undefined for a frozen clock. */
export function realDelayUntil(at: number): number | undefined {
  return frozen ? undefined : Math.max(0, at - mockNow());
}

type Relation = "ago" | "until";

function relativeText(at: number, relation: Relation): string {
  const span = at - mockNow();
  if (relation === "until") return span <= 0 ? "now" : `in ${duration(span)}`;
  return span > -1000 ? "just now" : `${duration(span)} ago`;
}

/** A `<time>` that says how long ago (or until when), kept current by `refreshTimes`. */
export function relative(iso: string, relation: Relation): HTMLTimeElement {
  const at = Date.parse(iso);
  return h(
    "time",
    { datetime: iso, title: instant(at), "data-at": at, "data-rel": relation },
    relativeText(at, relation),
  );
}

/** Brings every relative time on the page up to the mock's clock. */
export function refreshTimes(root: ParentNode): void {
  for (const element of root.querySelectorAll<HTMLTimeElement>("time[data-rel]")) {
    const at = Number(element.dataset.at);
    const text = relativeText(at, element.dataset.rel === "until" ? "until" : "ago");
    if (element.textContent !== text) element.textContent = text;
  }
}
