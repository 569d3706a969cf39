// Words for times and numbers, as the console shows them. Nothing here knows a rule of the mock:
// the state says what is true (a rebuild's status, a rate window's next slot), this only says it.

/** A span of time in at most two units: `45 s`, `3 min 5 s`, `2 h 3 min`, `4 d 2 h`. */
export function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(Math.abs(ms) / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return pair(minutes, "min", seconds % 60, "s");
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return pair(hours, "h", minutes % 60, "min");
  return pair(Math.floor(hours / 24), "d", hours % 24, "h");
}

function pair(big: number, bigUnit: string, small: number, smallUnit: string): string {
  return small === 0 ? `${big} ${bigUnit}` : `${big} ${bigUnit} ${small} ${smallUnit}`;
}

/** How many items of a long list (rebuilds, sink entries, invitations) the page draws: the most recent. */
export const SHOWN = 100;

/** `2026-11-22 14:03:07 UTC`: the mock's timestamps are UTC, and so is what the console shows. */
export function instant(epochMs: number): string {
  if (!Number.isFinite(epochMs)) return "unknown";
  return `${new Date(epochMs).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** `14:03:07`, for lists where the day is obvious. */
export function timeOfDay(epochMs: number): string {
  return Number.isFinite(epochMs) ? new Date(epochMs).toISOString().slice(11, 19) : "unknown";
}

/** How the clock stands against real time: `1 h 5 s ahead of real time`. */
export function offset(ms: number): string {
  if (Math.abs(ms) < 500) return "at real time";
  return `${duration(ms)} ${ms > 0 ? "ahead of" : "behind"} real time`;
}

/** `1,234`. */
export function count(value: number): string {
  return value.toLocaleString("en-US");
}

/** `30 %` from a rate of 0 to 1. */
export function percent(rate: number): string {
  return `${Math.round(rate * 1000) / 10} %`;
}

/** JSON for people: indented, or the text itself when it is a string. */
export function pretty(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  return JSON.stringify(value, null, 2);
}

/** A URL that may become a link: http and https only (a preview URL of any scheme is valid JSON). */
export function linkable(url: string | undefined | null): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}
