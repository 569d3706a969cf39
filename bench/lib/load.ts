import autocannon from "autocannon";
import { processCpuMicros } from "./process-cpu.js";
import { percentile } from "./stats.js";

/** One autocannon run's figures. */
export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  /** The server process's CPU time per answered request (µs), where the platform tells it. */
  serverCpuMicrosPerRequest: number | undefined;
  errors: number;
  /** Responses by status code. */
  statuses: Record<string, number>;
}

export interface LoadTarget {
  label: string;
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** `[<id>]` in it becomes a fresh id per request. */
  body?: string;
  /** Status codes that count as a correct answer; anything else makes the run suspect. */
  expect: readonly number[];
  /** The server's process id, to read the CPU time it spends per request. */
  pid?: number | undefined;
  /** Runs after each measured run of this target (the mock resets its state here). */
  afterRun?: () => Promise<void>;
}

async function load(
  target: LoadTarget,
  options: { connections: number; durationSeconds: number },
): Promise<LoadResult> {
  const cpuBefore = processCpuMicros(target.pid);
  const instance = autocannon({
    url: target.url,
    method: target.method ?? "GET",
    connections: options.connections,
    duration: options.durationSeconds,
    timeout: 10,
    ...(target.headers ? { headers: target.headers } : {}),
    ...(target.body === undefined ? {} : { body: target.body, idReplacement: true }),
  });
  // autocannon's own latency histogram has 1 ms resolution, too coarse for sub-millisecond answers;
  // its response event carries the exact duration.
  const latencies: number[] = [];
  instance.on("response", (_client: unknown, _status: number, _bytes: number, ms: number) => {
    latencies.push(ms);
  });
  const result = await instance;
  const cpuAfter = processCpuMicros(target.pid);
  const statuses: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = count;
  await target.afterRun?.();
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    total: result.requests.total,
    serverCpuMicrosPerRequest:
      cpuBefore === undefined || cpuAfter === undefined || latencies.length === 0
        ? undefined
        : (cpuAfter - cpuBefore) / latencies.length,
    errors: result.errors + result.timeouts,
    statuses,
  };
}

/** Why a run cannot be trusted (errors, unexpected statuses), or undefined when it can. */
export function suspicion(target: LoadTarget, result: LoadResult): string | undefined {
  const unexpected = Object.entries(result.statuses).filter(
    ([code]) => !target.expect.includes(Number(code)),
  );
  if (result.errors > 0) return `${result.errors} connection errors`;
  if (unexpected.length > 0)
    return `unexpected statuses ${unexpected.map(([c, n]) => `${c}×${n}`).join(", ")}`;
  if (result.total === 0) return "no responses";
  return undefined;
}

/**
 * Every target measured `rounds` times, alternating and rotating the order each round so no
 * target always runs first or right after another; a warm-up run per target first.
 */
export async function compareRounds(
  targets: readonly LoadTarget[],
  options: { connections: number; durationSeconds: number; warmupSeconds: number; rounds: number },
  log: (line: string) => void,
): Promise<Array<Record<string, LoadResult>>> {
  if (options.warmupSeconds > 0) {
    for (const target of targets) {
      await load(target, { connections: options.connections, durationSeconds: options.warmupSeconds });
    }
  }
  const rounds: Array<Record<string, LoadResult>> = [];
  for (let round = 0; round < options.rounds; round++) {
    const results: Record<string, LoadResult> = {};
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(i + round) % targets.length];
      if (!target) continue;
      const result = await load(target, options);
      results[target.label] = result;
      const warning = suspicion(target, result);
      log(
        `  round ${round + 1} ${target.label.padEnd(16)} ${result.requestsPerSecond.toFixed(0).padStart(7)} req/s` +
          `  p50 ${result.p50Ms.toFixed(2)} ms  p99 ${result.p99Ms.toFixed(2)} ms` +
          `  server CPU ${result.serverCpuMicrosPerRequest?.toFixed(0) ?? "?"} µs/req${warning ? `  (!) ${warning}` : ""}`,
      );
    }
    rounds.push(results);
  }
  return rounds;
}
