/** The contract's timestamp form: UTC, whole seconds, `+00:00` offset (`2026-11-22T02:39:49+00:00`). */
export function formatTimestamp(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 19)}+00:00`;
}
