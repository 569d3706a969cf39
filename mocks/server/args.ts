import { normaliseCorsOrigin, normaliseHost } from "../http/edge-policy.js";

/** The standalone server's command line. */
export interface CliOptions {
  host: string;
  port: number;
  seedFile?: string;
  stateFile?: string;
  rebuildDelaySeconds?: number;
  /** Extra origins allowed to call the mock from a browser (`*`: all). */
  corsOrigins: string[];
  cors: boolean;
  allowedHosts: string[];
  quiet: boolean;
  help: boolean;
}

export const USAGE = `Usage: rebuild-dashboard-kit [options]

Serves the Dashboard management API, the Partner site rebuild API and the /__mock control API.

Options:
  --port N              port to listen on (default 4010; 0 picks a free one)
  --host H              address to bind (default 127.0.0.1; anything else exposes the control API)
  --seed FILE           JSON seed replacing the default one ({ "dashboard": ..., "rebuild": ... })
  --state-file FILE     keep the whole state in FILE: resume from it when it exists (the seed is
                        not loaded), write it shortly after every change and on exit
  --rebuild-delay S     seconds a rebuild runs before it completes (default 5)
  --cors-origin ORIGIN  also allow this browser origin (http[s]://host[:port], or * for any);
                        repeatable. Pages on localhost, 127.0.0.1 or [::1] are always allowed
  --no-cors             no CORS at all: browsers on other origins cannot call the mock
  --allowed-host NAME   also answer requests addressed to NAME (Host header); repeatable.
                        Loopback names and addresses and the --host value always are
  --quiet               no per-request log lines (errors are still printed)
  --help                this text`;

export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** Parses `--flag value` and `--flag=value` forms; anything unknown or malformed is a UsageError. */
export function parseArgs(argv: readonly string[]): CliOptions {
  const options: CliOptions = {
    host: "127.0.0.1",
    port: 4010,
    corsOrigins: [],
    cors: true,
    allowedHosts: [],
    quiet: false,
    help: false,
  };
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
    const checked = (normalise: (text: string) => string): string => {
      const raw = value();
      try {
        return normalise(raw);
      } catch (error) {
        throw new UsageError(`${flag}: ${(error as Error).message}`);
      }
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
      case "--state-file":
        options.stateFile = value();
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
      case "--cors-origin":
        options.corsOrigins.push(checked(normaliseCorsOrigin));
        break;
      case "--no-cors":
        options.cors = false;
        break;
      case "--allowed-host":
        options.allowedHosts.push(checked(normaliseHost));
        break;
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
  if (!options.cors && options.corsOrigins.length > 0) {
    throw new UsageError("--no-cors and --cors-origin contradict each other");
  }
  return options;
}
