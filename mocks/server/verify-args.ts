// verify's command line: which services to probe, with which credentials (options or environment
// variables, never echoed), whether it may write, and where the report goes.
import { isHttpUrl } from "../../src/core/iri.js";
import { checkCredential } from "../../src/core/options.js";
import { readFlags, UsageError } from "./flags.js";
import { probeList } from "./verify-probes.js";

export interface VerifyPlan {
  readonly dashboard?: { readonly url: string; readonly token: string };
  readonly rebuild?: { readonly url: string; readonly partnerId: string; readonly apiKey: string };
  readonly allowWrites: boolean;
  readonly inviteEmail?: string;
  readonly sourceUrl?: string;
  /** Where the JSON report is written. */
  readonly report?: string;
}

/** The environment variables a secret may come from instead of its option. */
const SECRET_VARIABLES = {
  "--token": "DASHBOARD_TOKEN",
  "--partner-id": "REBUILD_PARTNER_ID",
  "--api-key": "REBUILD_API_KEY",
} as const;

const TEXT_OPTIONS = [
  "--dashboard-url",
  "--token",
  "--rebuild-url",
  "--partner-id",
  "--api-key",
  "--invite-email",
  "--source-url",
  "--report",
] as const;
type TextOption = (typeof TEXT_OPTIONS)[number];

export const VERIFY_USAGE = `Usage: rebuild-dashboard-kit verify [--dashboard-url URL --token TOKEN]
                                  [--rebuild-url URL --partner-id N --api-key KEY] [options]

Probes a running dashboard and/or rebuild service and checks, element by element, the parts of the
contract (openapi/) marked x-assumed against what the service answers. Each assumed element is
reported confirmed, contradicted or unexercised (docs/guides/verify-and-proxy.md).

Services (either alone is fine):
  --dashboard-url URL   the dashboard API's base URL, ending in /v1
  --token TOKEN         a dashboard API token without claims (or env ${SECRET_VARIABLES["--token"]})
  --rebuild-url URL     the rebuild API's base URL (no version segment)
  --partner-id N        the partner company ID (or env ${SECRET_VARIABLES["--partner-id"]})
  --api-key KEY         the partner's rebuild API key (or env ${SECRET_VARIABLES["--api-key"]})
Secrets are never printed, logged or written to the report.

Options:
  --allow-writes        also create what the probes need and remove it again (below); without it,
                        only requests that change nothing are sent
  --invite-email ADDR   with --allow-writes: invite this address to the token's team, then read
                        its team GUID (an invitation cannot be withdrawn through the API)
  --source-url URL      with --allow-writes: submit a rebuild of this public website twice (a new
                        request, then the existing one). This uses one of the partner's hourly
                        requests and starts a real rebuild
  --report FILE.json    write the assumption report there
  --help                this text

Read-only probes (each expects the status shown, as the contract documents it):
${probeList("read")}
  Each rebuild probe that passes authentication counts against the partner's hourly limit if the
  service counts refused requests, as the contract assumes (3 requests).

With --allow-writes:
${probeList("write")}
  Whatever was created is removed even when a probe fails or the run is interrupted (Ctrl+C).

Prints each probe and its answer, then the counts and every contradicted element with its
evidence. Exit status: 0 when nothing is contradicted, 1 when something is, 2 for a usage error, a
credential the service refuses, or a service that cannot be reached; 130 or 143 when interrupted
(after cleaning up).

Example (against npm start):
  npx rebuild-dashboard-kit verify --dashboard-url http://127.0.0.1:4010/v1 \\
    --token mock-token-unrestricted --rebuild-url http://127.0.0.1:4010 --partner-id 1001 \\
    --api-key mock-rebuild-key-1001 --allow-writes --source-url https://www.example.org/ --report r.json`;

/**
 * The plan `argv` and `env` describe, or `help`. Every problem is a UsageError naming the option;
 * none quotes a secret.
 */
export function parseVerifyArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): VerifyPlan | "help" {
  const given = new Map<TextOption, string>();
  let allowWrites = false;
  let help = false;
  readFlags(argv, (flag) => {
    if (flag.name === "--help" || flag.name === "-h") {
      help = true;
      return;
    }
    if (flag.name === "--allow-writes") {
      allowWrites = true;
      return;
    }
    // The name only: a mistyped `--tokn=SECRET` must not print the secret.
    if (!(TEXT_OPTIONS as readonly string[]).includes(flag.name))
      throw new UsageError(`unknown option ${flag.name}`);
    const name = flag.name as TextOption;
    if (given.has(name)) throw new UsageError(`${name} is given twice`);
    given.set(name, flag.value());
  });
  if (help) return "help";

  const secret = (option: keyof typeof SECRET_VARIABLES): string | undefined => {
    const value = given.get(option) ?? (env[SECRET_VARIABLES[option]] || undefined);
    if (value === undefined) return undefined;
    try {
      return checkCredential("verify", option, value);
    } catch (error) {
      throw new UsageError((error as Error).message.replace(/^verify: /, ""));
    }
  };
  const dashboardUrl = given.get("--dashboard-url");
  const rebuildUrl = given.get("--rebuild-url");
  if (dashboardUrl === undefined && rebuildUrl === undefined) {
    throw new UsageError("give --dashboard-url, --rebuild-url or both");
  }
  let dashboard: VerifyPlan["dashboard"];
  if (dashboardUrl !== undefined) {
    const token = secret("--token");
    if (token === undefined) {
      throw new UsageError(`--dashboard-url needs --token (or ${SECRET_VARIABLES["--token"]})`);
    }
    dashboard = { url: baseUrl("--dashboard-url", dashboardUrl), token };
  } else {
    for (const option of ["--token", "--invite-email"] as const) {
      if (given.has(option)) throw new UsageError(`${option} goes with --dashboard-url`);
    }
  }
  let rebuild: VerifyPlan["rebuild"];
  if (rebuildUrl !== undefined) {
    const partnerId = secret("--partner-id");
    const apiKey = secret("--api-key");
    for (const [option, value] of [
      ["--partner-id", partnerId],
      ["--api-key", apiKey],
    ] as const) {
      if (value === undefined) {
        throw new UsageError(`--rebuild-url needs ${option} (or ${SECRET_VARIABLES[option]})`);
      }
    }
    rebuild = { url: baseUrl("--rebuild-url", rebuildUrl), partnerId: partnerId ?? "", apiKey: apiKey ?? "" };
  } else {
    for (const option of ["--partner-id", "--api-key", "--source-url"] as const) {
      if (given.has(option)) throw new UsageError(`${option} goes with --rebuild-url`);
    }
  }
  for (const option of ["--invite-email", "--source-url"] as const) {
    if (given.has(option) && !allowWrites) {
      throw new UsageError(`${option} goes with --allow-writes (it makes the service change something)`);
    }
  }
  const sourceUrl = given.get("--source-url");
  if (sourceUrl !== undefined && !isHttpUrl(sourceUrl)) {
    throw new UsageError(`--source-url must be an absolute http or https URL, got ${quote(sourceUrl)}`);
  }
  const inviteEmail = given.get("--invite-email");
  if (inviteEmail !== undefined && !/^[^\s@]+@[^\s@]+$/.test(inviteEmail)) {
    throw new UsageError("--invite-email must be an email address");
  }
  const report = given.get("--report");
  return {
    ...(dashboard ? { dashboard } : {}),
    ...(rebuild ? { rebuild } : {}),
    allowWrites,
    ...(inviteEmail === undefined ? {} : { inviteEmail }),
    ...(sourceUrl === undefined ? {} : { sourceUrl }),
    ...(report === undefined ? {} : { report }),
  };
}

/** A base URL paths are appended to: absolute http(s), no user info, query or fragment; no trailing slash. */
function baseUrl(option: string, raw: string): string {
  const url = raw.replace(/\/+$/, "");
  if (isHttpUrl(url) && /^\w+:\/\/[^/@?#]+(\/[^?#]*)?$/.test(url)) return url;
  throw new UsageError(
    `${option} must be an absolute http or https URL without user info, query or fragment`,
  );
}

// Values are quoted as JSON (control characters escaped) and shortened, to keep messages readable.
function quote(value: string): string {
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}..."` : text;
}
