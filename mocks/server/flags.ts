// The command-line parsing every command of the bin shares: the server's flags (args.ts) and
// send-callback's (send-callback-args.ts) are read by the same rules and report errors alike.

/** A command line the user got wrong: the bin prints the message and the command's usage, and exits 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** One option as `readFlags` hands it over. */
export interface Flag {
  /** The option's name as written, before any `=`: `--port`. */
  readonly name: string;
  /** The whole argument as written: `--port=80`. */
  readonly arg: string;
  /** Its value, from `--flag value` or `--flag=value`; a missing or empty one is a UsageError. */
  value(): string;
}

/**
 * Walks `argv` option by option (`--flag value` and `--flag=value` forms) and hands each to `on`,
 * which throws a UsageError for one it does not know. A plain word where an option belongs is a
 * UsageError, and so is `--flag=value` for a flag that takes no value.
 */
export function readFlags(argv: readonly string[], on: (flag: Flag) => void): void {
  let next = 0;
  while (next < argv.length) {
    const arg = argv[next++] ?? "";
    if (!arg.startsWith("-")) throw new UsageError(`unexpected argument ${arg}`);
    const equals = arg.indexOf("=");
    const name = equals < 0 ? arg : arg.slice(0, equals);
    const inline = equals < 0 ? undefined : arg.slice(equals + 1);
    let taken = false;
    on({
      name,
      arg,
      value() {
        taken = true;
        const value = inline ?? argv[next++];
        if (value === undefined || value === "") throw new UsageError(`${name} needs a value`);
        return value;
      },
    });
    if (inline !== undefined && !taken) throw new UsageError(`${name} takes no value, got ${arg}`);
  }
}

/** The flag's value as an integer from `min` to `max`, written in plain digits. */
export function integerValue(flag: Flag, min: number, max: number): number {
  const raw = flag.value();
  const number = /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(number >= min && number <= max)) {
    throw new UsageError(`${flag.name} must be an integer from ${min} to ${max}, got ${raw}`);
  }
  return number;
}

/** The flag's value passed through `normalise`, whose error message becomes the UsageError's. */
export function checkedValue(flag: Flag, normalise: (text: string) => string): string {
  const raw = flag.value();
  try {
    return normalise(raw);
  } catch (error) {
    throw new UsageError(`${flag.name}: ${(error as Error).message}`);
  }
}
