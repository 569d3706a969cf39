/** The standalone server's command line. */
export interface CliOptions {
  host: string;
  port: number;
  seedFile?: string;
  rebuildDelaySeconds?: number;
  quiet: boolean;
  help: boolean;
}

export const USAGE = `Usage: rebuild-dashboard-kit [options]

Serves the Dashboard management API, the Partner site rebuild API and the /__mock control API.

Options:
  --port N            port to listen on (default 4010; 0 picks a free one)
  --host H            address to bind (default 127.0.0.1)
  --seed FILE         JSON seed replacing the default one ({ "dashboard": ..., "rebuild": ... })
  --rebuild-delay S   seconds a rebuild runs before it completes (default 5)
  --quiet             no per-request log lines
  --help              this text`;

export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** Parses `--flag value` and `--flag=value` forms; anything unknown or malformed is a UsageError. */
export function parseArgs(argv: readonly string[]): CliOptions {
  const options: CliOptions = { host: "127.0.0.1", port: 4010, quiet: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const [flag, inline] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg, undefined];
    const value = (): string => {
      const next = inline ?? argv[++i];
      if (next === undefined || next === "") throw new UsageError(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case "--port": {
        const raw = value();
        const port = /^\d{1,5}$/.test(raw) ? Number(raw) : Number.NaN;
        if (!(port >= 0 && port <= 65535))
          throw new UsageError(`--port must be an integer from 0 to 65535, got ${raw}`);
        options.port = port;
        break;
      }
      case "--host":
        options.host = value();
        break;
      case "--seed":
        options.seedFile = value();
        break;
      case "--rebuild-delay": {
        const raw = value();
        const seconds = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN;
        if (!(seconds >= 0 && seconds <= 86_400)) {
          throw new UsageError(`--rebuild-delay must be a number of seconds from 0 to 86400, got ${raw}`);
        }
        options.rebuildDelaySeconds = seconds;
        break;
      }
      case "--quiet":
        options.quiet = true;
        break;
      case "--help":
      case "-h":
        options.help = true;
        break;
      default:
        throw new UsageError(`unknown option ${arg}`);
    }
  }
  return options;
}
