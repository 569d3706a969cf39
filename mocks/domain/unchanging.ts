import { deepFreeze } from "./deep-freeze.js";

// Answers a domain gives again, unchanged, while what they show is unchanged (a team's server list
// that dashboards poll): an adapter may keep such an answer's JSON text with it and send it again
// (node-listener.ts). Marked explicitly, not recognised by being frozen: only an answer made to be
// shared is known to stay as it is, nested values included.
const unchanging = new WeakSet<object>();

/** `value`, deeply frozen and marked as an answer that never changes. */
export function unchangingAnswer<T extends object>(value: T): T {
  unchanging.add(deepFreeze(value));
  return value;
}

/** Whether `value` was made by `unchangingAnswer`. */
export function isUnchangingAnswer(value: unknown): value is object {
  return typeof value === "object" && value !== null && unchanging.has(value);
}
