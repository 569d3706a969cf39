import { normaliseCorsOrigin, normaliseHost } from "../http/edge-policy.js";
import { checkedValue, integerValue, readFlags, UsageError } from "./flags.js";

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
       rebuild-dashboard-kit send-callback --to URL --webhook-key KEY [options]

Serves the Dashboard management API, the Partner site rebuild API and the /__mock control API.

Commands:
  send-callback         POST one partner_project_rebuild_completed callback to your own receiver,
                        exactly as the rebuild service would; see rebuild-dashboard-kit send-callback --help

Options:
  --port N              port to listen on (default 4010; 0 picks a free one)
  --host H              address to bind (default 127.0.0.1; anything else exposes the control API)
  --seed FILE           JSON seed replacing the default one ({ "dashboard": ..., "rebuild": ... })
  --state-file FILE     keep the whole state in FILE: resume from it when it exists (the seed is
                        not loaded); every change is on disk before its answer is sent
  --rebuild-delay S     seconds a rebuild runs before it completes (default 5)
  --cors-origin ORIGIN  also allow this browser origin (http[s]://host[:port], or * for any);
                        repeatable. Pages on localhost, 127.0.0.1 or [::1] are always allowed
  --no-cors             no CORS at all: browsers on other origins cannot call the mock
  --allowed-host NAME   also answer requests addressed to NAME (Host header); repeatable.
                        Loopback names and addresses and the --host value always are
  --quiet               no per-request log lines (errors are still printed)
  --help                this text`;

/**
 * Parses the server's options (`--flag value` and `--flag=value` forms, flags.ts); anything unknown
 * or malformed is a UsageError.
 */
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
  readFlags(argv, (flag) => {
    switch (flag.name) {
      case "--port":
        options.port = integerValue(flag, 0, 65535);
        break;
      case "--host":
        options.host = flag.value();
        break;
      case "--seed":
        options.seedFile = flag.value();
        break;
      case "--state-file":
        options.stateFile = flag.value();
        break;
      case "--rebuild-delay": {
        const raw = flag.value();
        const seconds = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN;
        if (!(seconds >= 0 && seconds <= 86_400)) {
          throw new UsageError(`--rebuild-delay must be a number of seconds from 0 to 86400, got ${raw}`);
        }
        options.rebuildDelaySeconds = seconds;
        break;
      }
      case "--cors-origin":
        options.corsOrigins.push(checkedValue(flag, normaliseCorsOrigin));
        break;
      case "--no-cors":
        options.cors = false;
        break;
      case "--allowed-host":
        options.allowedHosts.push(checkedValue(flag, normaliseHost));
        break;
      case "--quiet":
        options.quiet = true;
        break;
      case "--help":
      case "-h":
        options.help = true;
        break;
      default:
        throw new UsageError(`unknown option ${flag.arg}`);
    }
  });
  if (!options.cors && options.corsOrigins.length > 0) {
    throw new UsageError("--no-cors and --cors-origin contradict each other");
  }
  return options;
}
