import { DashboardClient } from "../../src/index.js";
import { atMost, type Figure, ratio } from "../lib/figures.js";
import type { BenchMode } from "../lib/mode.js";
import { AUTH, DASHBOARD_TOKEN } from "../lib/servers.js";
import { mean, median } from "../lib/stats.js";

const BLOCK = 250;

/**
 * 4. `dash.servers.list()` against a raw `fetch` + `json()` of the same URL, both on the raw
 * node:http server (so the server's cost is the same on both sides), one call at a time. The
 * calls alternate in blocks, so drift in the machine's load hits both sides alike.
 */
export async function benchSdkOverhead(mode: BenchMode, ceilingOrigin: string, log: (line: string) => void) {
  const section = "4. SDK overhead";
  const baseUrl = `${ceilingOrigin}/v1`;
  const url = `${baseUrl}/si/servers`;
  const dash = new DashboardClient({ baseUrl, token: DASHBOARD_TOKEN });
  const raw = async () => {
    const response = await fetch(url, { headers: AUTH });
    if (!response.ok) throw new Error(`raw fetch answered ${response.status}`);
    return (await response.json()) as unknown;
  };
  const sdk = () => dash.servers.list();

  // Wall time per call, and this process's CPU time per block: the client's own work, which the
  // machine's other load disturbs far less than it disturbs wall time.
  const cpu = { raw: 0, sdk: 0 };
  const time = async (side: "raw" | "sdk", count: number, into: number[]) => {
    const call = side === "raw" ? raw : sdk;
    const cpuBefore = process.cpuUsage();
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await call();
      into.push((performance.now() - started) * 1000);
    }
    const used = process.cpuUsage(cpuBefore);
    cpu[side] += used.user + used.system;
  };
  for (let i = 0; i < mode.sdkWarmup; i++) {
    await raw();
    await sdk();
  }
  const rawUs: number[] = [];
  const sdkUs: number[] = [];
  for (let done = 0, block = 0; done < mode.sdkCalls; done += BLOCK, block++) {
    const count = Math.min(BLOCK, mode.sdkCalls - done);
    if (block % 2 === 0) {
      await time("raw", count, rawUs);
      await time("sdk", count, sdkUs);
    } else {
      await time("sdk", count, sdkUs);
      await time("raw", count, rawUs);
    }
  }
  const medians = { raw: median(rawUs), sdk: median(sdkUs) };
  const means = { raw: mean(rawUs), sdk: mean(sdkUs) };
  const cpuPerCall = { raw: cpu.raw / rawUs.length, sdk: cpu.sdk / sdkUs.length };
  log(
    `${section}: median sdk ${medians.sdk.toFixed(1)} µs vs raw ${medians.raw.toFixed(1)} µs; ` +
      `mean ${means.sdk.toFixed(1)} vs ${means.raw.toFixed(1)} µs; client CPU ${cpuPerCall.sdk.toFixed(1)} vs ` +
      `${cpuPerCall.raw.toFixed(1)} µs (${mode.sdkCalls} calls each)`,
  );
  const row = (name: string, values: { raw: number; sdk: number }): Figure => {
    const r = ratio(values.sdk, values.raw);
    return {
      section,
      name,
      value: values.sdk,
      unit: "µs",
      compared: { label: "raw fetch + json()", value: values.raw },
      ratio: r,
      ratioOf: "× raw fetch + json()",
      target: atMost(r, 1.05, "≤ 1.05× (≤ 5% overhead)"),
    };
  };
  return {
    figures: [
      row("servers.list(), median per call", medians),
      row("servers.list(), mean per call", means),
      {
        ...row("servers.list(), client CPU per call", cpuPerCall),
        note: "this process's CPU time (user + system) per call: the client's own work, less disturbed by other load",
      },
    ],
    raw: { calls: mode.sdkCalls, medians, means, cpuPerCall },
  };
}
