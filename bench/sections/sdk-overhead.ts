import createClient from "openapi-fetch";
import type { paths } from "../../src/generated/dashboard.js";
import { DashboardClient } from "../../src/index.js";
import { atMost, type Figure } from "../lib/figures.js";
import type { BenchMode } from "../lib/mode.js";
import { AUTH, DASHBOARD_TOKEN } from "../lib/servers.js";
import { mean, median } from "../lib/stats.js";

// Short blocks keep the sides' calls close in time: on a shared VM a block of 250 calls could run
// half again as slow as the next one.
const BLOCK = 20;
// The SDK's default per-attempt timeout, given to the like-for-like raw call.
const TIMEOUT_MS = 60_000;
// The latency of the "real network" figure: the ceiling answers this much later (x-bench-delay-ms),
// a round trip to a server in another region.
const LATENCY_MS = 30;
const LATENCY_BLOCK = 10;

type Side = "raw" | "timed" | "library" | "sdk" | "untimed";
const SIDES: readonly Side[] = ["raw", "timed", "library", "sdk", "untimed"];

/**
 * 4. `dash.servers.list()` against a raw `fetch` + `json()` of the same URL, and against the same
 * raw call given a cancellable timeout (an AbortController aborted by a timer, as the SDK does for
 * every attempt); a client with `timeoutMs: Infinity` against the bare call. All on the raw
 * node:http server (so the server's cost is the same for each), one call at a time. The sides take
 * turns in blocks, in a rotated order, so drift in the machine's load hits all alike. Then the SDK
 * and the timed raw call again, against a server that answers LATENCY_MS later: what the SDK's
 * own work weighs over a real network.
 */
export async function benchSdkOverhead(mode: BenchMode, ceilingOrigin: string, log: (line: string) => void) {
  const section = "4. SDK overhead";
  const baseUrl = `${ceilingOrigin}/v1`;
  const url = `${baseUrl}/si/servers`;
  const dash = new DashboardClient({ baseUrl, token: DASHBOARD_TOKEN });
  const untimed = new DashboardClient({
    baseUrl,
    token: DASHBOARD_TOKEN,
    timeoutMs: Number.POSITIVE_INFINITY,
  });
  const library = createClient<paths>({ baseUrl });
  const slow = { ...AUTH, "x-bench-delay-ms": String(LATENCY_MS) };
  const slowDash = new DashboardClient({ baseUrl, token: DASHBOARD_TOKEN, headers: slow });
  const json = async (response: Response) => {
    if (!response.ok) throw new Error(`raw fetch answered ${response.status}`);
    return (await response.json()) as unknown;
  };
  const timedFetch = async (headers: Record<string, string>) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
    try {
      return await json(await fetch(url, { headers, signal: controller.signal }));
    } finally {
      clearTimeout(timer);
    }
  };
  const calls: Record<Side, () => Promise<unknown>> = {
    raw: async () => json(await fetch(url, { headers: AUTH })),
    timed: () => timedFetch(AUTH),
    // openapi-fetch on its own, given the same timeout signal: what the library costs before the SDK's work.
    library: async () => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
      try {
        const { data, error } = await library.GET("/si/servers", {
          headers: AUTH,
          signal: controller.signal,
        });
        if (error) throw new Error("openapi-fetch answered an error");
        return data;
      } finally {
        clearTimeout(timer);
      }
    },
    sdk: () => dash.servers.list(),
    untimed: () => untimed.servers.list(),
  };

  // Per round, each side runs one block: wall time per call, and this process's CPU time per call
  // (the client's own work, which the machine's other load disturbs far less than wall time).
  type Round = Record<Side, { median: number; mean: number; cpu: number }>;
  const rounds: Round[] = [];
  const block = async (side: Side, count: number) => {
    const call = calls[side];
    const wall: number[] = [];
    const cpuBefore = process.cpuUsage();
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await call();
      wall.push((performance.now() - started) * 1000);
    }
    const used = process.cpuUsage(cpuBefore);
    return { median: median(wall), mean: mean(wall), cpu: (used.user + used.system) / count };
  };
  for (let i = 0; i < mode.sdkWarmup; i++) for (const side of SIDES) await calls[side]();
  for (let done = 0; done < mode.sdkCalls; done += BLOCK) {
    const count = Math.min(BLOCK, mode.sdkCalls - done);
    const round: Partial<Round> = {};
    // The order rotates, so no side always runs right after another.
    for (let i = 0; i < SIDES.length; i++) {
      const side = SIDES[(rounds.length + i) % SIDES.length] as Side;
      round[side] = await block(side, count);
    }
    rounds.push(round as Round);
  }
  // Over latency: the timed raw call and the SDK, in alternating blocks (rotated), median per block.
  const overLatency: Array<{ timed: number; sdk: number }> = [];
  const slowBlock = async (call: () => Promise<unknown>) => {
    const wall: number[] = [];
    for (let i = 0; i < LATENCY_BLOCK; i++) {
      const started = performance.now();
      await call();
      wall.push((performance.now() - started) * 1000);
    }
    return median(wall);
  };
  const slowCalls = Math.max(LATENCY_BLOCK * 2, Math.round(mode.sdkCalls / 10));
  for (let done = 0; done < slowCalls; done += LATENCY_BLOCK) {
    const first = overLatency.length % 2 === 0;
    const a = await slowBlock(first ? () => timedFetch(slow) : () => slowDash.servers.list());
    const b = await slowBlock(first ? () => slowDash.servers.list() : () => timedFetch(slow));
    overLatency.push(first ? { timed: a, sdk: b } : { timed: b, sdk: a });
  }
  const latencyRatio = median(overLatency.map((r) => r.sdk / r.timed));
  const latency = {
    timed: median(overLatency.map((r) => r.timed)),
    sdk: median(overLatency.map((r) => r.sdk)),
  };
  log(
    `${section}: over ${LATENCY_MS} ms of latency, median µs timed ${latency.timed.toFixed(0)}, sdk ${latency.sdk.toFixed(0)} ` +
      `(${slowCalls} calls each, ${overLatency.length} rounds)`,
  );
  type Stat = "median" | "mean" | "cpu";
  const per = (stat: Stat): Record<Side, number> => {
    const of = (side: Side) => median(rounds.map((r) => r[side][stat]));
    return {
      raw: of("raw"),
      timed: of("timed"),
      library: of("library"),
      sdk: of("sdk"),
      untimed: of("untimed"),
    };
  };
  // Like the servers' rounds: each ratio is taken within a round, then the median over rounds.
  const ratioOf = (stat: Stat, ours: Side, against: Side) =>
    median(rounds.map((r) => r[ours][stat] / r[against][stat]));
  const medians = per("median");
  const means = per("mean");
  const cpuPerCall = per("cpu");
  const show = (v: Record<Side, number>) => SIDES.map((side) => `${side} ${v[side].toFixed(1)}`).join(", ");
  log(
    `${section}: median µs ${show(medians)}; mean µs ${show(means)}; client CPU µs ${show(cpuPerCall)} ` +
      `(${mode.sdkCalls} calls each, ${rounds.length} rounds)`,
  );
  const RAW = "raw fetch + json()";
  const TIMED = "raw fetch + json() with a timeout signal";
  const byStat: Record<Stat, Record<Side, number>> = { median: medians, mean: means, cpu: cpuPerCall };
  const row = (name: string, stat: Stat, ours: Side, against: Side, label: string): Figure => {
    const values = byStat[stat];
    const r = ratioOf(stat, ours, against);
    const figure: Figure = {
      section,
      name,
      value: values[ours],
      unit: "µs",
      compared: { label, value: values[against] },
      ratio: r,
      ratioOf: `× ${label}`,
    };
    return figure;
  };
  return {
    figures: [
      {
        ...row("servers.list(), median per call, like for like", "median", "sdk", "timed", TIMED),
        // The SDK is judged like for like (issue 13): every peer SDK's attempt carries such a signal.
        // The cost of the runtime integrators asked for, openapi-fetch (issue 20, decisions/040).
        target: atMost(ratioOf("median", "sdk", "timed"), 1.15, "≤ 1.15×"),
        note:
          "the raw call given what every SDK attempt has: an AbortController and a timer, so a timeout " +
          "cancels the request; the ratio is the SDK's own work on openapi-fetch (decisions/040)",
      },
      {
        section,
        name: `servers.list() over ${LATENCY_MS} ms of latency, median per call`,
        value: latency.sdk,
        unit: "µs" as const,
        compared: { label: TIMED, value: latency.timed },
        ratio: latencyRatio,
        ratioOf: `× ${TIMED}`,
        target: atMost(latencyRatio, 1.005, "≤ 1.005× (< 0.5% overhead)"),
        note: `the ceiling answers ${LATENCY_MS} ms later (x-bench-delay-ms), as a server across a network would`,
      },
      {
        ...row("openapi-fetch alone, median per call, like for like", "median", "library", "timed", TIMED),
        note: "information: a bare openapi-fetch client's GET with the same timeout signal, what the library costs",
      },
      {
        ...row(
          "servers.list() against openapi-fetch alone, median per call",
          "median",
          "sdk",
          "library",
          "openapi-fetch alone",
        ),
        note: "information: the SDK's own work over the library's (timeouts, retries, credentials, checks)",
      },
      {
        ...row("servers.list(), client CPU per call, like for like", "cpu", "sdk", "timed", TIMED),
        note: "client CPU time per call against the raw call with the same timeout signal",
      },
      {
        ...row("servers.list() with timeoutMs: Infinity, median per call", "median", "untimed", "raw", RAW),
        target: atMost(ratioOf("median", "untimed", "raw"), 1.15, "≤ 1.15×"),
        note: "like for like too: a client without a timeout passes no signal of its own to fetch (decisions/040)",
      },
      {
        ...row("servers.list(), median per call, against a bare fetch", "median", "sdk", "raw", RAW),
        note: "information: the bare call carries no timeout signal, the SDK's does",
      },
      {
        ...row("servers.list(), mean per call, against a bare fetch", "mean", "sdk", "raw", RAW),
        note: "information",
      },
      {
        ...row("servers.list(), client CPU per call, against a bare fetch", "cpu", "sdk", "raw", RAW),
        note: "information: this process's CPU time (user + system) per call, less disturbed by other load",
      },
      {
        ...row("cost of the timeout signal alone, median per call", "median", "timed", "raw", RAW),
        note: "not the SDK: what passing an AbortSignal to this runtime's fetch costs any caller",
      },
    ],
    raw: {
      calls: mode.sdkCalls,
      rounds: rounds.length,
      medians,
      means,
      cpuPerCall,
      overLatency: { latencyMs: LATENCY_MS, calls: slowCalls, medians: latency, ratio: latencyRatio },
    },
  };
}
