import { readFlags, UsageError } from "./flags.js";
import { checkListenOptions, type ListenOptions, listenDefaults, readListenFlag } from "./listen-flags.js";

/** The standalone server's command line. */
export interface CliOptions extends ListenOptions {
  seedFile?: string;
  stateFile?: string;
  rebuildDelaySeconds?: number;
}

export const USAGE = `Usage: rebuild-dashboard-kit [options]
       rebuild-dashboard-kit send-callback --to URL --webhook-key KEY [options]

Serves the Dashboard management API, the Partner site rebuild API and the /__mock control API.

Commands:
  send-callback         POST one partner_project_rebuild_completed callback to your own receiver,
                        exactly as the rebuild service would; see rebuild-dashboard-kit send-callback --help
  verify                probe a real service and report which of the contract's assumptions hold;
                        see rebuild-dashboard-kit verify --help
  proxy                 relay to the real services on the mock's paths, recording a HAR and the same
                        report; see rebuild-dashboard-kit proxy --help

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
  const options: CliOptions = listenDefaults(4010);
  readFlags(argv, (flag) => {
    if (readListenFlag(flag, options)) return;
    switch (flag.name) {
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
      default:
        throw new UsageError(`unknown option ${flag.arg}`);
    }
  });
  checkListenOptions(options);
  return options;
}
