// The proxy's command line (`rebuild-dashboard-kit proxy …`), read by the rules every command of the
// bin shares (flags.ts): anything unknown or malformed is a UsageError naming the option.
import { checkBaseUrl } from "../../src/core/options.js";
import { checkedValue, integerValue, readFlags, UsageError } from "../server/flags.js";
import {
  checkListenOptions,
  type ListenOptions,
  listenDefaults,
  readListenFlag,
} from "../server/listen-flags.js";

export interface ProxyCliOptions extends ListenOptions {
  dashboardUpstream?: string;
  rebuildUpstream?: string;
  record?: string;
  report?: string;
  upstreamTimeoutSeconds: number;
}

export const PROXY_USAGE = `Usage: rebuild-dashboard-kit proxy --dashboard-upstream URL | --rebuild-upstream URL [options]

A validating, recording proxy between your app (or tests) and the real services. It serves the
dashboard API at /v1/… and the rebuild API at its own paths, exactly where the mock serves them, so
an app switches between mock and proxy by changing one origin. Every answer passes through
unchanged; each request and answer is checked against the contract, and the traffic feeds the same
assumption report as \`rebuild-dashboard-kit verify\`.

Options:
  --dashboard-upstream URL  the dashboard service's base URL, ending in /v1
  --rebuild-upstream URL    the rebuild service's base URL (its origin)
  --port N                  port to listen on (default 4020; 0 picks a free one)
  --host H                  address to bind (default 127.0.0.1)
  --record FILE.har         write every exchange to FILE.har as a HAR 1.2 log (opens in browser
                            devtools), kept whole as it grows; bearer tokens, API keys, webhook keys
                            and the token of a token creation are replaced with [REDACTED]
  --report FILE.json        write the assumption report to FILE.json on SIGINT/SIGTERM and on
                            every GET /__proxy/report (which also answers it)
  --upstream-timeout S      seconds a service may take for a whole answer (default 30)
  --cors-origin ORIGIN      also allow this browser origin (http[s]://host[:port], or * for any);
                            repeatable. Pages on localhost, 127.0.0.1 or [::1] are always allowed
  --no-cors                 no CORS at all
  --allowed-host NAME       also answer requests addressed to NAME (Host header); repeatable
  --quiet                   no per-request log lines (failures are still printed)
  --help                    this text

What the proxy answers itself, in the APIs' error envelope ({ "message", "error": { "code": "INTERNAL" } }):
  502  the service cannot be reached, answers something that is not HTTP, breaks off, redirects
       (never followed), sends a body over 4 MiB (never held past that), or no upstream was given
       for that API
  503  32 exchanges are already being forwarded (Retry-After: 1); not forwarded
  504  the service gave no whole answer within --upstream-timeout
  and, as the mock's edge does: 403 for a Host it does not allow, 204 to a CORS preflight, 404
  outside both APIs. A request body over the operation's limit is sent on unread (the service
  answers it) and recorded by its first bytes only.
Each of these is printed as one line; the proxy keeps running.`;

/** An http(s) base URL the proxy forwards to: checked as the SDK checks a baseUrl. */
function upstreamUrl(text: string): string {
  try {
    return checkBaseUrl("upstream", text);
  } catch {
    throw new TypeError(
      `must be an absolute http or https URL without user info, query or fragment, got ${text}`,
    );
  }
}

export function parseProxyArgs(argv: readonly string[]): ProxyCliOptions {
  const options: ProxyCliOptions = { ...listenDefaults(4020), upstreamTimeoutSeconds: 30 };
  readFlags(argv, (flag) => {
    if (readListenFlag(flag, options)) return;
    switch (flag.name) {
      case "--dashboard-upstream":
        options.dashboardUpstream = checkedValue(flag, upstreamUrl);
        break;
      case "--rebuild-upstream":
        options.rebuildUpstream = checkedValue(flag, upstreamUrl);
        break;
      case "--record":
        options.record = flag.value();
        break;
      case "--report":
        options.report = flag.value();
        break;
      case "--upstream-timeout":
        options.upstreamTimeoutSeconds = integerValue(flag, 1, 3600);
        break;
      default:
        throw new UsageError(`unknown option ${flag.arg}`);
    }
  });
  if (options.help) return options;
  checkListenOptions(options);
  if (options.dashboardUpstream === undefined && options.rebuildUpstream === undefined) {
    throw new UsageError("give --dashboard-upstream URL, --rebuild-upstream URL or both");
  }
  return options;
}
