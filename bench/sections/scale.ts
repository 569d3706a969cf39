import { startChild } from "../lib/children.js";
import { atMost, type Figure, ratio } from "../lib/figures.js";
import type { BenchMode } from "../lib/mode.js";
import { median, percentile } from "../lib/stats.js";

interface ScaleReport {
  tokens: number;
  requests: number;
  gcExposed: boolean;
  loadMs: number;
  firstFilteredMs: number;
  filteredMs: number[];
  unfilteredMs: number[];
  seedBytes: number;
  worldBytes: number;
  filters: string[];
}

async function runWorker(script: string, mode: BenchMode): Promise<ScaleReport> {
  const child = startChild(process.execPath, ["--expose-gc", script], {
    BENCH_TOKENS: String(mode.scaleTokens),
    BENCH_REQUESTS: String(mode.scaleRequests),
  });
  let stdout = "";
  child.process.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  const code = await new Promise<number | null>((resolve) => {
    const limit = setTimeout(() => child.process.kill("SIGKILL"), 120_000);
    child.process.once("exit", (exitCode) => {
      clearTimeout(limit);
      resolve(exitCode);
    });
  });
  if (code !== 0) throw new Error(`scale worker exited ${code}:\n${child.output()}`);
  return JSON.parse(stdout.trim().split("\n").pop() ?? "") as ScaleReport;
}

/** 6. A world with many tokens: filtered list latency (through the dispatcher), memory, load time. */
export async function benchScale(mode: BenchMode, script: string, log: (line: string) => void) {
  const section = `6. Scale: ${mode.scaleTokens.toLocaleString("en-US")} tokens`;
  const report = await runWorker(script, mode);
  const p50 = median(report.filteredMs);
  const p99 = percentile(report.filteredMs, 99);
  const unfilteredP50 = median(report.unfilteredMs);
  const worldMb = (report.seedBytes + report.worldBytes) / 1e6;
  log(
    `${section}: filtered p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, first ${report.firstFilteredMs.toFixed(1)} ms, ` +
      `load ${report.loadMs.toFixed(0)} ms, world ${worldMb.toFixed(1)} MB`,
  );
  const figures: Figure[] = [
    {
      section,
      name: "filtered token list, p50 per request",
      value: p50,
      unit: "ms",
      compared: { label: "unfiltered list p50", value: unfilteredP50 },
      ratio: ratio(p50, 20),
      ratioOf: "× the 20 ms budget",
      target: atMost(p50, 20, "≤ 20 ms"),
      note: `p99 ${p99.toFixed(2)} ms; first filtered request (builds the name index) ${report.firstFilteredMs.toFixed(1)} ms; pageSize=100, ${report.filters.length} filters from rare to broad`,
    },
    {
      section,
      name: "heap of the world (seed + state + name index)",
      value: worldMb,
      unit: "MB",
      ratio: ratio((report.seedBytes + report.worldBytes) / report.tokens, 1),
      ratioOf: "bytes per token",
      note: `seed objects ${(report.seedBytes / 1e6).toFixed(1)} MB, loaded state ${(report.worldBytes / 1e6).toFixed(1)} MB${report.gcExposed ? "" : " (no --expose-gc: rough)"}`,
    },
    {
      section,
      name: "seed load (hashing every secret)",
      value: report.loadMs,
      unit: "ms",
      ratio: ratio((report.loadMs * 1000) / report.tokens, 1),
      ratioOf: "µs per token",
    },
  ];
  return { figures, raw: report };
}
