// The bin's `verify` command (issue 19): sends the probes of verify-probes.ts to a running service,
// feeds every answer to the assumption recorder, removes whatever it created (also when a probe
// fails or the run is interrupted), prints a summary and writes the report.

import { access, constants, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { DEFAULT_MAX_RESPONSE_BYTES } from "../../src/core/options.js";
import { errorCode, redact, secretForms } from "../../src/core/redact.js";
import {
  bodyLimit as dashboardBodyLimit,
  credentialHeaders as dashboardCredentials,
} from "../../src/generated/dashboard-operations.js";
import {
  bodyLimit as rebuildBodyLimit,
  credentialHeaders as rebuildCredentials,
} from "../../src/generated/rebuild-operations.js";
import { type AssumptionReport, createAssumptionRecorder, type Exchange } from "../assumptions/recorder.js";
import type { ContractDocument } from "../assumptions/report.js";
import { isNode } from "../assumptions/schema-walk.js";
import { cryptoRandom, type Random, randomGuid } from "../domain/random.js";
import { UsageError } from "./flags.js";
import type { CommandOutput } from "./send-callback.js";
import { parseVerifyArgs, VERIFY_USAGE, type VerifyPlan } from "./verify-args.js";
import { LIST_TOKENS, type Placeholder, type Probe, READ_PROBES, WRITE_GROUPS } from "./verify-probes.js";

/** The largest body each document's operations take (its `x-body-limit`). */
const BODY_LIMITS = { dashboard: dashboardBodyLimit, rebuild: rebuildBodyLimit } as const;

export interface VerifyOptions {
  output: CommandOutput;
  /** Aborted to interrupt the run (the bin aborts it on SIGINT and SIGTERM, with the signal's name as reason). */
  signal?: AbortSignal;
  /** How long each request may take, in milliseconds (30 s unless a test makes it shorter). */
  timeoutMs?: number;
  random?: Random;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** Runs `verify` with its arguments; resolves with the exit status (0, 1, 2, or 130/143 when interrupted). */
export async function runVerify(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  options: VerifyOptions,
): Promise<number> {
  let plan: VerifyPlan | "help";
  try {
    plan = parseVerifyArgs(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    options.output.err(`${error.message}\n\nRun rebuild-dashboard-kit verify --help for the options.`);
    return 2;
  }
  if (plan === "help") {
    options.output.out(VERIFY_USAGE);
    return 0;
  }
  return verify(plan, options);
}

/** What one probe got: the status and the parsed JSON body, or nothing when the service did not answer. */
type Answer = { status: number; body: unknown } | undefined;

class Interrupted extends Error {}

/** Sends every probe the plan allows, cleans up, prints the summary; resolves with the exit status. */
async function verify(plan: VerifyPlan, options: VerifyOptions): Promise<number> {
  const { output, timeoutMs = DEFAULT_TIMEOUT_MS, random = cryptoRandom } = options;
  // Before any probe: a run with writes should not end unable to say what it found.
  if (plan.report !== undefined) {
    try {
      await access(dirname(plan.report), constants.W_OK);
    } catch (error) {
      output.err(
        `verify: cannot write --report ${plan.report} (${errorCode(error) ?? "error"} on its folder)`,
      );
      return 2;
    }
  }
  const secrets: string[] = [];
  const addSecret = (secret: string) => secrets.push(secret, ...secretForms([secret]));
  if (plan.dashboard) addSecret(plan.dashboard.token);
  if (plan.rebuild) addSecret(plan.rebuild.apiKey);
  const print = (line: string) => output.out(redact(line, secrets));
  const recorder = createAssumptionRecorder();
  const runAbort = new AbortController();
  const interrupt = () => runAbort.abort();
  options.signal?.addEventListener("abort", interrupt, { once: true });
  if (options.signal?.aborted) interrupt();

  const unique = randomGuid(random).slice(0, 8);
  const values = new Map<Placeholder, string>([
    ["{new guid}", randomGuid(random)],
    ["{unknown email}", `verify-${unique}@example.invalid`],
  ]);
  if (plan.inviteEmail) values.set("{invite email}", plan.inviteEmail);
  if (plan.sourceUrl) values.set("{source url}", plan.sourceUrl);
  /** Probes that remove what was created, by the placeholder they fill. */
  const pending = new Map<Placeholder, Probe>();
  /** Why a document's probes stopped: it could not be reached, or refused the credentials. */
  const stopped = new Map<ContractDocument, string>();
  const reached = new Set<ContractDocument>();
  const triedValid = new Set<ContractDocument>();

  const base = (document: ContractDocument) =>
    document === "dashboard" ? plan.dashboard?.url : plan.rebuild?.url;

  async function send(probe: Probe, signal: AbortSignal): Promise<Answer> {
    const fill = (text: string, encode: (value: string) => string = (v) => v) =>
      text.replace(/\{[a-z ]+\}/g, (name) => {
        const value = values.get(name as Placeholder);
        return value === undefined ? name : encode(value);
      });
    const path = fill(probe.path, encodeURIComponent);
    const query = fill(probe.query ?? "", encodeURIComponent);
    const headers = credentialHeaders(plan, probe, unique);
    let body: string | undefined;
    let requestBody: unknown;
    if (probe.body?.kind === "json") {
      requestBody = JSON.parse(fill(JSON.stringify(probe.body.value), (v) => JSON.stringify(v).slice(1, -1)));
      body = JSON.stringify(requestBody);
      headers["content-type"] = "application/json";
    } else if (probe.body?.kind === "text") {
      body = "rebuild-dashboard-kit verify";
      headers["content-type"] = "text/plain";
    } else if (probe.body?.kind === "oversized") {
      // A JSON string one byte longer than the largest body the contract allows.
      body = `"${"a".repeat(BODY_LIMITS[probe.document] - 1)}"`;
      headers["content-type"] = "application/json";
    }
    const url = `${base(probe.document)}${path}${query ? `?${query}` : ""}`;
    const label = `${probe.document} ${probe.method} ${path}${query ? "?…" : ""}: ${probe.what}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: probe.method,
        headers,
        ...(body === undefined ? {} : { body }),
        redirect: "manual",
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
      });
    } catch (error) {
      if (signal.aborted) throw new Interrupted();
      print(`  ${label}: no answer (${whyNoAnswer(error, timeoutMs)})`);
      return undefined;
    }
    const text = await readCapped(response, signal).catch((error: unknown) => {
      if (signal.aborted) throw new Interrupted();
      print(`  ${label}: the body was cut off (${errorCode(error) ?? "read error"})`);
      return "";
    });
    reached.add(probe.document);
    let responseBody: unknown;
    try {
      responseBody = text === "" ? undefined : JSON.parse(text);
    } catch {
      responseBody = undefined;
    }
    const exchange: Exchange = {
      document: probe.document,
      method: probe.method,
      path,
      query,
      requestHeaders: Object.fromEntries(Object.keys(headers).map((name) => [name, "[REDACTED]"])),
      requestBody,
      status: response.status,
      responseHeaders: Object.fromEntries(response.headers),
      responseBody,
      ...(probe.expected === undefined ? {} : { expected: probe.expected }),
    };
    recorder.record(exchange);
    const differs = probe.expected !== undefined && probe.expected !== response.status;
    print(`  ${label}: ${response.status}${differs ? ` (expected ${probe.expected})` : ""}`);
    return { status: response.status, body: responseBody };
  }

  /** Sends a probe of a document still running; stops the document when it cannot be reached or refuses the credentials. */
  async function probe(probe: Probe): Promise<Answer> {
    if (stopped.has(probe.document) || base(probe.document) === undefined) return undefined;
    const answer = await send(probe, runAbort.signal);
    if (answer === undefined && !reached.has(probe.document)) {
      stopped.set(probe.document, `could not reach the ${probe.document} service at ${base(probe.document)}`);
    }
    if (probe.auth === "valid" && !triedValid.has(probe.document) && answer) {
      triedValid.add(probe.document);
      if (answer.status === 401 || answer.status === 403) {
        const given = probe.document === "dashboard" ? "--token" : "--partner-id and --api-key";
        stopped.set(probe.document, `the ${probe.document} service refused ${given} (${answer.status})`);
      }
      // The first request with the credentials goes to an operation the provider documents: a 404
      // says the base URL is wrong, not that every operation is missing.
      if (answer.status === 404) {
        const option = probe.document === "dashboard" ? "--dashboard-url (it ends in /v1)" : "--rebuild-url";
        stopped.set(
          probe.document,
          `the ${probe.document} service answered 404 to ${probe.method} ${probe.path}: check ${option}`,
        );
      }
    }
    return answer;
  }

  let interrupted = false;
  print(
    `Probing${plan.dashboard ? ` the dashboard API at ${plan.dashboard.url}` : ""}` +
      `${plan.dashboard && plan.rebuild ? " and" : ""}${plan.rebuild ? ` the rebuild API at ${plan.rebuild.url}` : ""}` +
      ` (${plan.allowWrites ? "with writes" : "read-only"}):`,
  );
  try {
    for (const read of READ_PROBES) {
      const answer = await probe(read);
      if (read === LIST_TOKENS) fillTokenIds(answer, values);
    }
    if (plan.allowWrites) {
      for (const group of WRITE_GROUPS) {
        if (group.needs && plan[group.needs] === undefined) continue;
        for (const step of group.probes) {
          const needed = [...`${step.path}${step.query ?? ""}`.matchAll(/\{created [a-z]+\}/g)];
          if (needed.some(([name]) => !values.has(name as Placeholder))) break;
          const answer = await probe(step);
          const success = answer !== undefined && answer.status >= 200 && answer.status < 300;
          if (step.creates && success) {
            const created = createdValue(step.creates.placeholder, answer.body);
            const secret =
              isNode(answer.body) && isNode(answer.body.data) ? answer.body.data.token : undefined;
            if (typeof secret === "string" && secret !== "") addSecret(secret);
            if (created === undefined) {
              print(
                `  The answer held no ${step.creates.placeholder.slice(1, -1)}: remove what it created by hand.`,
              );
              break;
            }
            values.set(step.creates.placeholder, created);
            pending.set(step.creates.placeholder, step.creates.cleanup);
          }
          if (step.removes && success) {
            for (const [placeholder, cleanup] of pending)
              if (cleanup.path === step.path) pending.delete(placeholder);
          }
          if (step.creates && !success) break;
        }
      }
    }
  } catch (error) {
    if (!(error instanceof Interrupted)) throw error;
    interrupted = true;
    print("Interrupted: cleaning up.");
  } finally {
    options.signal?.removeEventListener("abort", interrupt);
    // Cleanup runs to its end even after an interruption: its own time limit, not the run's signal.
    for (const [placeholder, cleanup] of pending) {
      const answer = await send(cleanup, new AbortController().signal).catch(() => undefined);
      if (answer === undefined || answer.status < 200 || answer.status >= 300) {
        print(
          `  Could not remove what ${placeholder.slice(1, -1)} ${values.get(placeholder) ?? ""} names: remove it by hand.`,
        );
      }
    }
  }

  const report = recorder.report();
  for (const line of summary(report, stopped)) print(line);
  if (plan.report !== undefined) {
    try {
      await writeFile(plan.report, `${JSON.stringify(report, null, 2)}\n`);
      print(`Report written to ${plan.report}`);
    } catch (error) {
      output.err(`verify: could not write --report ${plan.report} (${errorCode(error) ?? "error"})`);
      return 2;
    }
  }
  if (interrupted) return options.signal?.reason === "SIGTERM" ? 143 : 130;
  if (stopped.size > 0) {
    for (const reason of stopped.values()) output.err(`verify: ${reason}`);
    return 2;
  }
  const contradicted = report.assumptions.some((entry) => entry.status === "contradicted");
  return contradicted || report.violations.length > 0 ? 1 : 0;
}

/** Fills `{listed id}` from the token list (the first id), and `{unknown id}` with one above any listed. */
function fillTokenIds(answer: Answer, values: Map<Placeholder, string>): void {
  const data = isNode(answer?.body) && Array.isArray(answer.body.data) ? answer.body.data : [];
  const ids = data.flatMap((token: unknown) =>
    isNode(token) && Number.isSafeInteger(token.id) ? [token.id as number] : [],
  );
  if (ids[0] !== undefined) values.set("{listed id}", String(ids[0]));
  // Above the largest id of the first page: a guess, but the 404 it should get is harmless.
  values.set("{unknown id}", String(Math.max(0, ...ids) + 1_000_000));
}

function createdValue(placeholder: "{created id}" | "{created guid}", body: unknown): string | undefined {
  const data = isNode(body) ? body.data : undefined;
  const value =
    placeholder === "{created id}"
      ? isNode(data)
        ? data.id
        : undefined
      : Array.isArray(data) && isNode(data[0])
        ? data[0].guid
        : undefined;
  return typeof value === "number" || (typeof value === "string" && value !== "") ? String(value) : undefined;
}

function credentialHeaders(plan: VerifyPlan, probe: Probe, unique: string): Record<string, string> {
  if (probe.auth === "none") return {};
  const wrong = probe.auth === "wrong";
  if (probe.document === "dashboard") {
    return {
      [dashboardCredentials.bearerAuth]: `Bearer ${wrong ? `verify-unknown-${unique}` : (plan.dashboard?.token ?? "")}`,
    };
  }
  return {
    [rebuildCredentials.partnerId]: plan.rebuild?.partnerId ?? "",
    [rebuildCredentials.apiKey]: wrong ? `verify-unknown-${unique}` : (plan.rebuild?.apiKey ?? ""),
  };
}

/** The body as text, at most DEFAULT_MAX_RESPONSE_BYTES of it (the SDK's limit); the rest is not read. */
async function readCapped(response: Response, signal: AbortSignal): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let length = 0;
  const stop = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener("abort", stop, { once: true });
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      chunks.push(chunk.value);
      length += chunk.value.byteLength;
      if (length > DEFAULT_MAX_RESPONSE_BYTES) {
        stop();
        return "";
      }
    }
  } finally {
    signal.removeEventListener("abort", stop);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

function whyNoAnswer(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === "TimeoutError")
    return `no answer within ${timeoutMs / 1000} s`;
  return errorCode(error) ?? (error instanceof Error ? error.message : "fetch failed");
}

/** The summary lines: counts, then each contradicted element and each violation with its evidence. */
function summary(report: AssumptionReport, stopped: ReadonlyMap<ContractDocument, string>): string[] {
  const count = (status: string) => report.assumptions.filter((entry) => entry.status === status).length;
  const lines = [
    "",
    `${report.assumptions.length} assumed elements: ${count("confirmed")} confirmed, ` +
      `${count("contradicted")} contradicted, ${count("unexercised")} unexercised; ` +
      `${report.violations.length} violation${report.violations.length === 1 ? "" : "s"} of confirmed elements.`,
  ];
  const contradicted = report.assumptions.filter((entry) => entry.status === "contradicted");
  if (contradicted.length > 0) lines.push("", "Contradicted:");
  for (const entry of contradicted) {
    lines.push(`  ${entry.document} ${entry.label} (${entry.pointer})`, `    ${entry.evidence}`);
  }
  if (report.violations.length > 0) lines.push("", "Violations:");
  for (const violation of report.violations) {
    lines.push(`  ${violation.document} ${violation.pointer}`, `    ${violation.evidence}`);
  }
  for (const reason of stopped.values()) lines.push("", `Stopped early: ${reason}.`);
  return lines;
}
