// RFC 3339 date-time, the contract's `format: date-time`. An offset is required: without one,
// `Date.parse` reads the time in the host's zone and the same seed would load differently per machine.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/i;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
// Responses write timestamps in UTC with a four-digit year, so the instant must have one too.
const EARLIEST = Date.parse("0000-01-01T00:00:00Z");
const LATEST = Date.parse("9999-12-31T23:59:59.999Z");

/** Whether a seed gives `text` as a real instant: RFC 3339 with an offset, in years 0000 to 9999. */
export function isSeedTimestamp(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const [hour, minute, second] = [Number(match[4]), Number(match[5]), Number(match[6])];
  const [offsetHour, offsetMinute] = [Number(match[7] ?? 0), Number(match[8] ?? 0)];
  // `Date.parse` rolls 2026-02-30 over to March 2 and 24:00 over to the next day instead of failing.
  const leapDay = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 1 : 0;
  const ms = parseSeedTimestamp(text);
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= (DAYS_IN_MONTH[month - 1] ?? 0) + leapDay &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHour <= 23 &&
    offsetMinute <= 59 &&
    ms >= EARLIEST &&
    ms <= LATEST
  );
}

/** Epoch milliseconds of a text `isSeedTimestamp` accepts. */
export function parseSeedTimestamp(text: string): number {
  // RFC 3339 allows a lower-case `t` and `z`; not every engine's `Date.parse` does.
  return Date.parse(text.toUpperCase());
}
