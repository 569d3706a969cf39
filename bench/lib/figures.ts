/** One line of the results table. */
export interface Figure {
  section: string;
  name: string;
  value: number | null;
  unit: Unit;
  /** What the figure is compared with, and that side's value. */
  compared?: { label: string; value: number | null };
  /** Ours ÷ the compared value (or ÷ the target when there is nothing to compare with). */
  ratio: number | null;
  /** What the ratio means, e.g. "× raw node:http". */
  ratioOf: string;
  target?: Target;
  note?: string;
}

/** `pass` is null when the figure is missing (a section skipped or failed). */
export interface Target {
  text: string;
  pass: boolean | null;
}

export type Unit = "req/s" | "ms" | "µs" | "B" | "MB" | "tokens";

export function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return null;
  return a / b;
}

export function atLeast(value: number | null, min: number, text: string): Target {
  return { text, pass: value === null ? null : value >= min };
}

export function atMost(value: number | null, max: number, text: string): Target {
  return { text, pass: value === null ? null : value <= max };
}

export function formatValue(value: number | null, unit: Unit): string {
  if (value === null || !Number.isFinite(value)) return "—";
  switch (unit) {
    case "req/s":
      return `${Math.round(value).toLocaleString("en-US")} req/s`;
    case "ms":
      return `${value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : Math.round(value)} ms`;
    case "µs":
      return `${value.toFixed(1)} µs`;
    case "B":
      // Exact bytes: a budget of 6 kB is 6,000 B, and 5,995 B must not read as "6.00 kB".
      return `${Math.round(value).toLocaleString("en-US")} B`;
    case "MB":
      return `${value.toFixed(1)} MB`;
    case "tokens":
      return value.toLocaleString("en-US");
  }
}

export function formatRatio(value: number | null): string {
  if (value === null) return "—";
  if (value >= 100) return `${value.toFixed(0)}×`;
  if (value >= 10) return `${value.toFixed(1)}×`;
  // Near a limit two decimals can round onto it (0.999 → "1.00"): show the third.
  const text = value.toFixed(2);
  return `${text === "1.00" && value !== 1 ? value.toFixed(3) : text}×`;
}

export function verdict(target: Figure["target"]): string {
  if (!target) return "";
  if (target.pass === null) return "not measured";
  return target.pass ? "pass" : "**MISS**";
}
