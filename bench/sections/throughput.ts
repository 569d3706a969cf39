import { atLeast, type Figure, ratio } from "../lib/figures.js";
import { sendJson } from "../lib/http.js";
import { compareRounds, type LoadResult, type LoadTarget, suspicion } from "../lib/load.js";
import type { BenchMode } from "../lib/mode.js";
import { AUTH, PARTNER, PRISM_SERVERS_PATH, type RunningServer } from "../lib/servers.js";
import { median } from "../lib/stats.js";

export const MOCK = "mock";
export const CEILING = "raw node:http";
export const PRISM = "Prism";

export interface ThroughputContext {
  mode: BenchMode;
  mock: RunningServer;
  ceiling: RunningServer;
  prism: RunningServer | undefined;
  log: (line: string) => void;
}

type Rounds = Array<Record<string, LoadResult>>;

type Pick = (r: LoadResult) => number | undefined;

/** Median over the rounds of `from` ÷ `other` (default: ours ÷ theirs), each taken within one round. */
function sameRoundRatio(rounds: Rounds, pick: Pick, other: string, from = MOCK): number | null {
  const ratios = rounds
    .map((round) => ratio(round[from] ? pick(round[from]) : null, round[other] ? pick(round[other]) : null))
    .filter((r): r is number => r !== null);
  return ratios.length === 0 ? null : median(ratios);
}

function medianOf(rounds: Rounds, label: string, pick: Pick): number | null {
  const values = rounds.flatMap((round) => {
    const value = round[label] ? pick(round[label]) : undefined;
    return value === undefined || !Number.isFinite(value) ? [] : [value];
  });
  return values.length === 0 ? null : median(values);
}

function comparisonFigures(
  section: string,
  rounds: Rounds,
  other: string,
  minThroughputRatio: number | undefined,
): Figure[] {
  const rows: Array<[string, "req/s" | "ms" | "µs", Pick]> = [
    ["requests/s", "req/s", (r) => r.requestsPerSecond],
    ["p50 latency", "ms", (r) => r.p50Ms],
    ["p99 latency", "ms", (r) => r.p99Ms],
    // Less disturbed by the load generator and other processes than requests/s: the server's own cost.
    ["server CPU time per request", "µs", (r) => r.serverCpuMicrosPerRequest],
  ];
  const figures = rows.map(([name, unit, pick], index): Figure => {
    const value = medianOf(rounds, MOCK, pick);
    const sameRound = sameRoundRatio(rounds, pick, other);
    return {
      section,
      name,
      value,
      unit,
      compared: { label: other, value: medianOf(rounds, other, pick) },
      ratio: sameRound,
      ratioOf: `× ${other}`,
      ...(index === 0 && minThroughputRatio !== undefined
        ? { target: atLeast(sameRound, minThroughputRatio, `≥ ${minThroughputRatio}× ${other}`) }
        : {}),
    };
  });
  // Without /proc (not Linux) there is no CPU figure to show.
  return figures.filter((f) => f.unit !== "µs" || f.value !== null);
}

function warnings(targets: readonly LoadTarget[], rounds: Rounds): string[] {
  return targets.flatMap((target) =>
    rounds.flatMap((round, i) => {
      const result = round[target.label];
      const why = result ? suspicion(target, result) : undefined;
      return why ? [`${target.label}, round ${i + 1}: ${why}`] : [];
    }),
  );
}

/** 1. GET /v1/si/servers on the mock, the raw node:http ceiling and Prism, alternately. */
export async function benchGet(ctx: ThroughputContext) {
  const section = "1. Mock GET /v1/si/servers";
  const targets: LoadTarget[] = [
    {
      label: MOCK,
      url: `${ctx.mock.origin}/v1/si/servers`,
      headers: AUTH,
      expect: [200],
      pid: ctx.mock.child.process.pid,
    },
    {
      label: CEILING,
      url: `${ctx.ceiling.origin}/v1/si/servers`,
      expect: [200],
      pid: ctx.ceiling.child.process.pid,
    },
    ...(ctx.prism
      ? [
          {
            label: PRISM,
            url: `${ctx.prism.origin}${PRISM_SERVERS_PATH}`,
            headers: AUTH,
            expect: [200],
            pid: ctx.prism.child.process.pid,
          },
        ]
      : []),
  ];
  ctx.log(
    `${section}: ${ctx.mode.rounds} round(s) of ${ctx.mode.durationSeconds} s, ${ctx.mode.connections} connections`,
  );
  const rounds = await compareRounds(targets, ctx.mode, ctx.log);
  const rps: Pick = (r) => r.requestsPerSecond;
  const figures = [
    ...comparisonFigures(section, rounds, CEILING, 0.7),
    ...(ctx.prism ? comparisonFigures(section, rounds, PRISM, 5) : []),
  ];
  if (ctx.prism) {
    // What the load generator and this machine let any server show over Prism in the same rounds.
    figures.push({
      section,
      name: "requests/s of the raw node:http ceiling",
      value: medianOf(rounds, CEILING, rps),
      unit: "req/s",
      compared: { label: PRISM, value: medianOf(rounds, PRISM, rps) },
      ratio: sameRoundRatio(rounds, rps, PRISM, CEILING),
      ratioOf: `× ${PRISM}`,
      note: "context, not ours: the largest ratio to Prism any server could reach in these rounds",
    });
  }
  if (!ctx.prism) {
    figures.push({
      section,
      name: "requests/s",
      value: medianOf(rounds, MOCK, (r) => r.requestsPerSecond),
      unit: "req/s",
      compared: { label: PRISM, value: null },
      ratio: null,
      ratioOf: `× ${PRISM}`,
      target: { text: `≥ 5× ${PRISM}`, pass: null },
      note: "Prism skipped in this mode",
    });
  }
  return { figures, rounds, warnings: warnings(targets, rounds) };
}

/**
 * Rebuild submissions to `server`, each for a fresh URL, by a partner allowed a million per hour (2
 * and 2b). A mock is reset after each run, so no run inherits another's rebuilds and pending work.
 */
function submissions(label: string, server: RunningServer, resetAfterRun: boolean): LoadTarget {
  return {
    label,
    url: `${server.origin}/api/integration/partners/hostpanel/rebuilds`,
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-partner-id": String(PARTNER.id),
      "x-api-key": PARTNER.apiKey,
    },
    body: JSON.stringify({ sourceUrl: "https://shop-bench.com/p/[<id>]" }),
    expect: [202],
    ...(resetAfterRun
      ? {
          afterRun: async () => {
            const status = await sendJson(`${server.origin}/__mock/reset`, "POST", undefined);
            if (status !== 204) throw new Error(`POST /__mock/reset answered ${status}`);
          },
        }
      : {}),
    pid: server.child.process.pid,
  };
}

/** 2. Rebuild submissions, each for a fresh URL, by a partner allowed a million per hour. */
export async function benchPost(ctx: ThroughputContext) {
  const section = "2. Mock POST rebuild submission (stateful)";
  const targets = [submissions(MOCK, ctx.mock, true), submissions(CEILING, ctx.ceiling, false)];
  ctx.log(`${section}: ${ctx.mode.rounds} round(s) of ${ctx.mode.durationSeconds} s`);
  const rounds = await compareRounds(targets, ctx.mode, ctx.log);
  return {
    figures: comparisonFigures(section, rounds, CEILING, 0.5),
    rounds,
    warnings: warnings(targets, rounds),
  };
}

export const WITHOUT_STATE_FILE = "mock, no state file";

export interface StateFileContext {
  mode: BenchMode;
  /** The mock started with `--state-file`. */
  stateful: RunningServer;
  /** The same mock without one. */
  plain: RunningServer;
  log: (line: string) => void;
}

/**
 * 2b. The submissions of 2 on a mock with `--state-file`, where each 202 waits until its change is on
 * disk (file and directory synced; one write for all the answers waiting), against the same mock
 * without a state file, alternately.
 */
export async function benchPostStateFile(ctx: StateFileContext) {
  const section = "2b. Mock POST rebuild submission with --state-file (durable before the answer)";
  const targets = [submissions(MOCK, ctx.stateful, true), submissions(WITHOUT_STATE_FILE, ctx.plain, true)];
  ctx.log(
    `${section}: ${ctx.mode.rounds} round(s) of ${ctx.mode.durationSeconds} s, ${ctx.mode.connections} connections`,
  );
  const rounds = await compareRounds(targets, ctx.mode, ctx.log);
  return {
    figures: comparisonFigures(section, rounds, WITHOUT_STATE_FILE, undefined),
    rounds,
    warnings: warnings(targets, rounds),
  };
}
