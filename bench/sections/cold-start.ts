import { startChild } from "../lib/children.js";
import { atMost, type Figure, ratio } from "../lib/figures.js";
import { freePort, waitFor200 } from "../lib/http.js";
import type { BenchMode } from "../lib/mode.js";
import { AUTH, PRISM_SERVERS_PATH, prismArgs } from "../lib/servers.js";
import { median } from "../lib/stats.js";

/** Spawn → first 200 on the servers list, polling every 5 ms on fresh connections. */
async function coldStart(args: (port: number) => string[], path: string, timeoutMs: number): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = startChild(process.execPath, args(port));
  try {
    const answered = await waitFor200(`http://127.0.0.1:${port}${path}`, AUTH, {
      timeoutMs,
      intervalMs: 5,
      exited: () => child.process.exitCode !== null,
      describe: child.output,
    });
    return answered - started;
  } finally {
    await child.stop();
  }
}

/**
 * 3. Our compiled CLI under plain node vs Prism, each started several times; medians. The raw
 * node:http server is started alternately with ours: what node itself costs on this machine now.
 */
export async function benchColdStart(
  mode: BenchMode,
  programs: { mockCli: string; ceiling: string },
  log: (line: string) => void,
) {
  const section = "3. Cold start to first 200";
  const ours: number[] = [];
  const raw: number[] = [];
  const path = "/v1/si/servers";
  for (let i = 0; i < mode.coldStartRuns; i++) {
    ours.push(await coldStart((port) => [programs.mockCli, "--port", String(port), "--quiet"], path, 15_000));
    raw.push(await coldStart((port) => [programs.ceiling, "--port", String(port)], path, 15_000));
  }
  log(`${section}: mock ${ours.map((ms) => ms.toFixed(0)).join(", ")} ms`);
  log(`${section}: raw node:http ${raw.map((ms) => ms.toFixed(0)).join(", ")} ms`);
  const prism: number[] = [];
  for (let i = 0; i < mode.prismColdStartRuns; i++) {
    prism.push(await coldStart(prismArgs, PRISM_SERVERS_PATH, 60_000));
  }
  if (prism.length > 0) log(`${section}: Prism ${prism.map((ms) => ms.toFixed(0)).join(", ")} ms`);
  const oursMedian = median(ours);
  const rawMedian = median(raw);
  const prismMedian = prism.length > 0 ? median(prism) : null;
  const againstRaw: Figure = {
    section,
    name: "spawn → first 200 (median), against node itself",
    value: oursMedian,
    unit: "ms",
    compared: { label: "raw node:http", value: rawMedian },
    ratio: ratio(oursMedian, rawMedian),
    ratioOf: "× raw node:http",
    note: "the raw server's start is node's own start-up on this machine at this moment",
  };
  const figure: Figure = {
    section,
    name: "spawn → first 200 (median)",
    value: oursMedian,
    unit: "ms",
    compared: { label: "Prism", value: prismMedian },
    ratio: ratio(oursMedian, prismMedian),
    ratioOf: "× Prism",
    target: atMost(oursMedian, 300, "≤ 300 ms"),
    ...(prism.length === 0 ? { note: "Prism skipped in this mode" } : {}),
  };
  return { figures: [figure, againstRaw], raw: { oursMs: ours, rawMs: raw, prismMs: prism } };
}
