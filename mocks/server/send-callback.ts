// The bin's `send-callback` command: throws a realistic completion callback at a receiver, made
// and sent by the same code as the mock's deliveries, and reports every answer.
import { errorCode, redact, secretForms } from "../../src/core/redact.js";
import { callbackHeaders } from "../domain/rebuild/callback-payload.js";
import { CALLBACK_TIMEOUT_MS, postCallback } from "../http/callback-transport.js";
import { UsageError } from "./flags.js";
import { printable } from "./printable.js";
import {
  ANSWER_SHOWN_CHARS,
  parseSendCallbackArgs,
  SEND_CALLBACK_USAGE,
  type SendCallbackPlan,
} from "./send-callback-args.js";

/** Where the command writes: lines for stdout and for stderr. */
export interface CommandOutput {
  out(line: string): void;
  err(line: string): void;
}

const processOutput: CommandOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Runs `send-callback` with its arguments; resolves with the exit status (0, 1, or 2 for a usage error). */
export async function runSendCallback(
  argv: readonly string[],
  output: CommandOutput = processOutput,
): Promise<number> {
  let plan: SendCallbackPlan | "help";
  try {
    plan = parseSendCallbackArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    output.err(`${error.message}\n\n${SEND_CALLBACK_USAGE}`);
    return 2;
  }
  if (plan === "help") {
    output.out(SEND_CALLBACK_USAGE);
    return 0;
  }
  return sendCallback(plan, { output });
}

export interface SendCallbackOptions {
  output: CommandOutput;
  /** How long each attempt may take; the service's (10 s) unless a test makes it shorter. */
  timeoutMs?: number;
}

/** One attempt's end: an answer (its body perhaps cut short), or none. */
type Attempt =
  | {
      kind: "answer";
      status: number;
      statusText: string;
      location: string | null;
      text: string;
      bytes: number;
      /** Why the body did not arrive in full: then the service counts the attempt as failed. */
      bodyError?: string;
    }
  | { kind: "none"; reason: string };

/**
 * Sends the plan's callback `repeat` times, one attempt after another, and prints each answer;
 * resolves with 0 when every attempt got a 2xx, else 1. The webhook key is redacted from every
 * line printed, whatever form the receiver echoes it in.
 */
export async function sendCallback(
  plan: SendCallbackPlan,
  { output, timeoutMs = CALLBACK_TIMEOUT_MS }: SendCallbackOptions,
): Promise<number> {
  const secrets = [plan.webhookKey, ...secretForms([plan.webhookKey])];
  const print = (line: string) => output.out(redact(line, secrets));
  const headers = callbackHeaders(plan.webhookKey);
  const body = JSON.stringify(plan.payload);

  print(`POST ${plan.to.href}`);
  // The key is redacted like any echo of it.
  for (const [name, value] of Object.entries(headers)) print(`  ${name}: ${value}`);
  print(`  ${printable(body)}`);

  let accepted = 0;
  let made = 0;
  while (made < plan.repeat) {
    made++;
    const started = performance.now();
    const attempt = await post(plan, headers, body, timeoutMs, secrets);
    const ms = Math.round(performance.now() - started);
    const label = `Attempt ${made} of ${plan.repeat}`;
    if (attempt.kind === "none") {
      print(`${label}: no answer after ${ms} ms: ${attempt.reason}`);
      break;
    }
    const { status, statusText, location, text, bytes, bodyError } = attempt;
    if (status >= 200 && status < 300 && bodyError === undefined) accepted++;
    print(`${label}: ${status}${statusText && ` ${printable(statusText)}`} in ${ms} ms, ${bytes} bytes`);
    if (location !== null) {
      print(`  Location: ${printable(cut(location))} (not followed, as by the service)`);
    }
    for (const line of answerLines(text, bytes)) print(`  ${line}`);
    if (bodyError !== undefined) print(`  ${bodyError}: the service counts this attempt as failed`);
  }

  print("");
  const failed = made - accepted;
  if (failed === 0) {
    print(made === 1 ? "The attempt got a 2xx." : `All ${made} attempts got a 2xx.`);
    return 0;
  }
  const unsent = plan.repeat - made;
  print(
    `${failed} of ${attempts(made)} did not get a 2xx; the service would retry the delivery.` +
      (unsent > 0 ? ` The receiver could not be reached, so ${attempts(unsent)} more were not sent.` : ""),
  );
  return 1;
}

const attempts = (n: number) => `${n} attempt${n === 1 ? "" : "s"}`;

/** One attempt as the service makes it (postCallback), its answer's body read to the end or the time limit. */
async function post(
  plan: SendCallbackPlan,
  headers: Readonly<Record<string, string>>,
  body: string,
  timeoutMs: number,
  secrets: readonly string[],
): Promise<Attempt> {
  let response: Response;
  try {
    response = await postCallback(plan.to.href, headers, body, timeoutMs);
  } catch (error) {
    return { kind: "none", reason: whyNoAnswer(error, plan.to, timeoutMs) };
  }
  // Enough of the body to show ANSWER_SHOWN_CHARS characters once any echo of the key in it is
  // redacted (a character takes up to 4 bytes). The rest is read and counted, not kept: the
  // service reads every answer to its end before the attempt counts.
  const keep = 4 * (ANSWER_SHOWN_CHARS + Math.max(...secrets.map((secret) => secret.length)));
  const kept = new Uint8Array(keep);
  let length = 0;
  let bytes = 0;
  let bodyError: string | undefined;
  const reader = response.body?.getReader();
  try {
    for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) {
      bytes += chunk.value.byteLength;
      const part = chunk.value.subarray(0, keep - length);
      kept.set(part, length);
      length += part.byteLength;
    }
  } catch (error) {
    bodyError = isTimeout(error)
      ? `the body did not end within ${timeoutMs / 1000} s`
      : `the body was cut off (${errorCode(error) ?? String(error)})`;
  }
  const redirect = response.status >= 300 && response.status < 400 ? response.headers.get("location") : null;
  return {
    kind: "answer",
    status: response.status,
    statusText: redact(response.statusText, secrets),
    location: redirect === null ? null : redact(redirect, secrets),
    text: redact(new TextDecoder().decode(kept.subarray(0, length)), secrets),
    bytes,
    ...(bodyError === undefined ? {} : { bodyError }),
  };
}

/** The answer's body as lines safe to print: cut to ANSWER_SHOWN_CHARS characters, control characters escaped. */
function answerLines(text: string, bytes: number): string[] {
  if (bytes === 0) return ["(no body)"];
  const shown = cut(text);
  const lines = printable(shown).split("\n");
  if (shown !== text) lines.push(`... (the first ${ANSWER_SHOWN_CHARS} characters are shown)`);
  return lines;
}

/** The first ANSWER_SHOWN_CHARS characters of `text` (code points, so no character is split). */
function cut(text: string): string {
  const chars = [...text];
  return chars.length > ANSWER_SHOWN_CHARS ? chars.slice(0, ANSWER_SHOWN_CHARS).join("") : text;
}

const isTimeout = (error: unknown) =>
  error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");

/** Why an attempt got no answer, plainly, with the receiver's host and port. */
function whyNoAnswer(error: unknown, to: URL, timeoutMs: number): string {
  const where = `${to.hostname}:${to.port || (to.protocol === "https:" ? "443" : "80")}`;
  if (isTimeout(error)) return `${where} did not answer within ${timeoutMs / 1000} s (timed out)`;
  const code = errorCode(error);
  switch (code) {
    case "ECONNREFUSED":
      return `${where} refused the connection (ECONNREFUSED); is the receiver running?`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `the host ${to.hostname} could not be resolved (${code})`;
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
      return `${where} closed the connection without an answer (${code})`;
    default:
      return `could not reach ${where} (${code ?? (error instanceof Error ? error.message : String(error))})`;
  }
}
