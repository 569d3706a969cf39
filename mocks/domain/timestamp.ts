/** 0000-01-01T00:00:00Z: the earliest instant a timestamp can write with a four-digit year. */
export const EARLIEST_TIME_MS = -62_167_219_200_000;
/** 9999-12-31T23:59:59Z: the clock never passes it, so every timestamp stays RFC 3339. */
export const LATEST_TIME_MS = 253_402_300_799_000;

// Timestamps have whole seconds, and a busy mock formats the same second many times (a rebuild's
// createdAt, its completion, each delivery, the sink): the last one is kept.
let cachedSecond = Number.NaN;
let cachedText = "";

/**
 * An instant within what timestamps can write. The clock never passes `LATEST_TIME_MS`, so work due
 * later falls due then, and is written so.
 */
export function clampTime(epochMs: number): number {
  return Math.min(LATEST_TIME_MS, Math.max(EARLIEST_TIME_MS, epochMs));
}

/** The contract's timestamp form: UTC, whole seconds, `+00:00` offset (`2026-11-22T02:39:49+00:00`). */
export function formatTimestamp(epochMs: number): string {
  const second = Math.floor(clampTime(epochMs) / 1000);
  if (second === cachedSecond) return cachedText;
  const text = `${new Date(clampTime(epochMs)).toISOString().slice(0, 19)}+00:00`;
  cachedSecond = second;
  cachedText = text;
  return text;
}

/** Exact to the millisecond, for snapshots: `2026-11-22T02:39:49.123Z`. */
export function formatInstant(epochMs: number): string {
  return new Date(clampTime(epochMs)).toISOString();
}
