/** How long and how often each section measures: the full run, or the seconds-long CI smoke. */
export interface BenchMode {
  name: "full" | "smoke";
  /** autocannon: concurrent connections and seconds per measured run. */
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** Rounds of the alternating server comparison; ratios are taken within a round. */
  rounds: number;
  includePrism: boolean;
  coldStartRuns: number;
  prismColdStartRuns: number;
  /** SDK overhead: calls per side (split into alternating blocks) and warm-up calls. */
  sdkCalls: number;
  sdkWarmup: number;
  /** Scale section: tokens in the world and measured filtered requests. */
  scaleTokens: number;
  scaleRequests: number;
}

export const FULL: BenchMode = {
  name: "full",
  connections: 10,
  durationSeconds: 3,
  // Prism's JIT needs a few seconds to reach its pace; a short warm-up would understate it.
  warmupSeconds: 3,
  rounds: 5,
  includePrism: true,
  coldStartRuns: 7,
  prismColdStartRuns: 3,
  sdkCalls: 4000,
  sdkWarmup: 500,
  scaleTokens: 100_000,
  scaleRequests: 300,
};

export const SMOKE: BenchMode = {
  name: "smoke",
  connections: 4,
  durationSeconds: 1,
  warmupSeconds: 0,
  rounds: 1,
  includePrism: false,
  coldStartRuns: 2,
  prismColdStartRuns: 0,
  sdkCalls: 200,
  sdkWarmup: 20,
  scaleTokens: 2_000,
  scaleRequests: 20,
};
