// Timestamps have whole seconds, and a busy mock formats the same second many times (a rebuild's
// createdAt, its completion, each delivery, the sink): the last one is kept.
let cachedSecond = Number.NaN;
let cachedText = "";

/** The contract's timestamp form: UTC, whole seconds, `+00:00` offset (`2026-11-22T02:39:49+00:00`). */
export function formatTimestamp(epochMs: number): string {
  const second = Math.floor(epochMs / 1000);
  if (second === cachedSecond) return cachedText;
  const text = `${new Date(epochMs).toISOString().slice(0, 19)}+00:00`;
  cachedSecond = second;
  cachedText = text;
  return text;
}
