// send-callback's command line: its options, its usage text, and the callback they describe,
// built by the mock's own builder and checked against the contract before anything is sent.

import { isHttpUrl } from "../../src/core/iri.js";
import { checkCredential } from "../../src/core/options.js";
import { checkShape, type ShapeIssue } from "../../src/core/shape.js";
import { exactCheck } from "../../src/webhooks/exact-check.js";
import { CALLBACK_SHAPE, type RebuildCompletedCallback } from "../../src/webhooks/schema.js";
import { cryptoRandom, type Random, randomGuid } from "../domain/random.js";
import { type CallbackFields, callbackPayload, previewUrlOf } from "../domain/rebuild/callback-payload.js";
import { CALLBACK_TIMEOUT_MS } from "../http/callback-transport.js";
import { integerValue, readFlags, UsageError } from "./flags.js";

/** What `send-callback` was asked to do. */
export interface SendCallbackPlan {
  /** The receiver. */
  readonly to: URL;
  readonly webhookKey: string;
  /** Checked against the contract's `webhooks` schema. */
  readonly payload: RebuildCompletedCallback;
  /** How many times the same delivery is sent. */
  readonly repeat: number;
}

/** `--repeat` at most: enough to see de-duplication, and at 10 s per attempt a bounded wait. */
const MAX_REPEAT = 100;
/** How much of each answer's body is printed, in characters. */
export const ANSWER_SHOWN_CHARS = 2000;

// Defaults that make a callback the default seed would produce: its partner with webhooks, and the
// source URL of the README's examples.
const DEFAULT_PARTNER_ID = 1001;
const DEFAULT_SOURCE_URL = "https://www.example.com/";

/** The contract's `status` values: the alternatives of the callback's schema. */
const STATUSES = Object.keys(CALLBACK_SHAPE ? (CALLBACK_SHAPE.m ?? {}) : {});

export const SEND_CALLBACK_USAGE = `Usage: rebuild-dashboard-kit send-callback --to URL --webhook-key KEY [options]

POSTs one partner_project_rebuild_completed callback to your webhook receiver exactly as the rebuild
service would: the body the mock builds for a finished rebuild, checked against the contract's
webhooks schema first (a value it refuses is a usage error, never sent), the headers
Content-Type: application/json and X-API-Key, no redirect followed, ${CALLBACK_TIMEOUT_MS / 1000} s to answer.

Options:
  --to URL              the receiver's absolute http or https URL (required)
  --webhook-key KEY     the webhook API key, sent in X-API-Key (required; never printed)
  --status S            ${STATUSES.join(" or ")} (default ${STATUSES[0]}; a success carries a preview_url)
  --error-code C        error_code (only with --status failed; left out when not given)
  --error-message M     error_message (only with --status failed; left out when not given)
  --source-url U        source_url (default ${DEFAULT_SOURCE_URL})
  --partner-id N        partner_id (default ${DEFAULT_PARTNER_ID}, the default seed's partner)
  --request-id ID       request_id (default: a new GUID, as the mock makes them)
  --project-id ID       project_id (default: a new GUID); the preview_url is made from it
  --repeat N            send the same delivery N times, one after another, as the service's
                        retries would (1 to ${MAX_REPEAT}; default 1): your receiver should act on it once
  --help                this text

Prints the callback, then one line per attempt (its number, the receiver's status, the time it
took) with the first ${ANSWER_SHOWN_CHARS.toLocaleString("en")} characters of the answer's body, control characters escaped and
the webhook key redacted, and a summary. Stops early when the receiver cannot be reached.
Exit status: 0 when every attempt got a 2xx, 1 when one did not or the receiver could not be
reached, 2 for a usage error.

Example:
  npx rebuild-dashboard-kit send-callback --to http://127.0.0.1:3000/webhooks/rebuild \\
    --webhook-key my-webhook-key --status failed --error-code process_failed --repeat 3`;

/** The options that take a text value, each at most once, by the callback field each sets. */
const FIELDS = {
  "--request-id": "request_id",
  "--partner-id": "partner_id",
  "--project-id": "project_id",
  "--source-url": "source_url",
  "--status": "status",
  "--error-code": "error_code",
  "--error-message": "error_message",
} as const;
type TextOption = keyof typeof FIELDS | "--to" | "--webhook-key";
const TEXT_OPTIONS: ReadonlySet<string> = new Set([...Object.keys(FIELDS), "--to", "--webhook-key"]);

// A number as JSON writes it: how --partner-id is read, so that the contract decides what it may be.
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * The plan `argv` describes, or `help` when it asks for the usage. Every problem is a UsageError
 * naming the option; none quotes the webhook key.
 */
export function parseSendCallbackArgs(
  argv: readonly string[],
  random: Random = cryptoRandom,
): SendCallbackPlan | "help" {
  const given = new Map<TextOption, string>();
  let repeat: number | undefined;
  let help = false;
  readFlags(argv, (flag) => {
    if (flag.name === "--help" || flag.name === "-h") {
      help = true;
      return;
    }
    // The name only: a mistyped `--webhook-kee=KEY` must not print the key.
    if (flag.name !== "--repeat" && !TEXT_OPTIONS.has(flag.name))
      throw new UsageError(`unknown option ${flag.name}`);
    if ((flag.name === "--repeat" ? repeat : given.get(flag.name as TextOption)) !== undefined) {
      throw new UsageError(`${flag.name} is given twice`);
    }
    if (flag.name === "--repeat") repeat = integerValue(flag, 1, MAX_REPEAT);
    else given.set(flag.name as TextOption, flag.value());
  });
  if (help) return "help";

  const to = receiverUrl(required(given, "--to"));
  const webhookKey = required(given, "--webhook-key");
  try {
    checkCredential("send-callback", "--webhook-key", webhookKey);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }

  const status = given.get("--status") ?? STATUSES[0] ?? "";
  for (const option of ["--error-code", "--error-message"] as const) {
    if (given.has(option) && status !== "failed") {
      throw new UsageError(
        `${option} goes with --status failed (only a failed rebuild's callback has error details)`,
      );
    }
  }
  const projectId = given.get("--project-id") ?? randomGuid(random);
  const errorCode = given.get("--error-code");
  const errorMessage = given.get("--error-message");
  // The options as written, in the types the contract expects only where the text says so: the
  // check below reports any value the contract refuses, so a wrong one is never sent.
  const fields = {
    requestId: given.get("--request-id") ?? randomGuid(random),
    partnerId: partnerIdValue(given.get("--partner-id")),
    projectId,
    sourceUrl: given.get("--source-url") ?? DEFAULT_SOURCE_URL,
    status,
    previewUrl: previewUrlOf(projectId),
    ...(errorCode === undefined ? {} : { errorCode }),
    ...(errorMessage === undefined ? {} : { errorMessage }),
  } as CallbackFields;
  const payload = callbackPayload(fields);
  const issues = checkShape(CALLBACK_SHAPE, payload, exactCheck);
  if (issues.length > 0) throw new UsageError(issues.map((issue) => refusal(issue, given)).join("\n"));
  return { to, webhookKey, payload: payload as RebuildCompletedCallback, repeat: repeat ?? 1 };
}

function required(given: ReadonlyMap<TextOption, string>, option: TextOption): string {
  const value = given.get(option);
  if (value === undefined) throw new UsageError(`${option} is required`);
  return value;
}

/** The receiver's URL: what fetch can POST to, as a partner's webhook URL is written. */
function receiverUrl(raw: string): URL {
  const url = isHttpUrl(raw) ? new URL(raw) : undefined;
  if (url === undefined) {
    throw new UsageError(`--to must be an absolute http or https URL, got ${quote(raw)}`);
  }
  // fetch refuses such a URL; and a callback authenticates with the webhook key alone.
  if (url.username !== "" || url.password !== "") {
    throw new UsageError("--to must not carry user info (user:password@); the callback sends only X-API-Key");
  }
  return url;
}

/**
 * --partner-id as JSON would read it: a number when written as one, else the text (which the
 * contract refuses). An integer beyond ±(2^53 - 1) is refused by the receiver's own check
 * (exactCheck), as every receiver built with the SDK refuses it.
 */
function partnerIdValue(raw: string | undefined): unknown {
  if (raw === undefined) return DEFAULT_PARTNER_ID;
  return JSON_NUMBER.test(raw) ? Number(raw) : raw;
}

/** A problem the contract's check found, told by the option that set the field. */
function refusal(issue: ShapeIssue, given: ReadonlyMap<TextOption, string>): string {
  const field = issue.path.replace(/^\$\.?/, "");
  const option = (Object.keys(FIELDS) as (keyof typeof FIELDS)[]).find((name) => FIELDS[name] === field);
  const value = option === undefined ? undefined : given.get(option);
  if (option === undefined || value === undefined) {
    // Only the fields the options set can be wrong; anything else is a bug in the builder.
    throw new Error(`send-callback built a callback the contract refuses at ${issue.path}: ${issue.message}`);
  }
  return `${option} ${quote(value)} is refused by the contract's callback schema (${field}: ${issue.message})`;
}

// Values are quoted as JSON (control characters escaped) and shortened, to keep messages readable.
function quote(value: string): string {
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}..."` : text;
}
