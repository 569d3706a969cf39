/**
 * Scale: a world whose user 1 owns BENCH_TOKENS extra tokens, served through the real dispatcher
 * in-process (no sockets, so only the mock's own cost is measured). Run with `node --expose-gc`;
 * prints one JSON line with the figures.
 */
import { type DashboardSeedToken, defaultDashboardSeed } from "../../mocks/domain/dashboard/index.js";
import { createMockDispatcher } from "../../mocks/http/mock-dispatcher.js";
import { nodeSha256Hex } from "../../mocks/http/node-sha256.js";
import { createMockWorld } from "../../mocks/world.js";

const tokenCount = Number(process.env.BENCH_TOKENS ?? 100_000);
const requestCount = Number(process.env.BENCH_REQUESTS ?? 300);
const gc = (globalThis as { gc?: () => void }).gc;
const origin = "http://127.0.0.1:4010";

const ENVIRONMENTS = ["prod", "staging", "dev", "ci", "qa"];
const PURPOSES = ["deploy", "backup", "monitoring", "billing", "dns", "mail", "metrics", "cron", "sync"];
const REGIONS = ["eu-west", "us-east", "ap-south", "sa-east"];

/** Varied names: `Prod Deploy eu-west #1234`; names repeat in parts, never as a whole. */
function tokenName(i: number): string {
  const env = ENVIRONMENTS[i % ENVIRONMENTS.length] ?? "";
  const purpose = PURPOSES[Math.floor(i / 5) % PURPOSES.length] ?? "";
  const region = REGIONS[Math.floor(i / 45) % REGIONS.length] ?? "";
  return `${env[0]?.toUpperCase()}${env.slice(1)} ${purpose} ${region} #${i}`;
}

// From rare to broad: one token, a few, a tenth, a fifth, none at all.
const FILTERS = ["#77777", "#4242", "billing", "prod", "staging backup", "nothing-matches", "EU-WEST"];

function heapUsed(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

async function main() {
  const heapStart = heapUsed();
  const extra: DashboardSeedToken[] = [];
  for (let i = 1; i <= tokenCount; i++) {
    extra.push({
      id: 1000 + i,
      userId: 1,
      name: tokenName(i),
      secret: `bench-token-${i}-${(i * 2654435761) >>> 0}`,
      claims: [],
      createdAt: "2026-01-01T00:00:00+00:00",
    });
  }
  const seed = { ...defaultDashboardSeed, tokens: [...defaultDashboardSeed.tokens, ...extra] };
  const heapSeed = heapUsed();

  const loadStarted = performance.now();
  // As startMockServer builds it: node:crypto hashes the secrets.
  const world = createMockWorld({ seed: { dashboard: seed }, origin, sha256Hex: nodeSha256Hex });
  const loadMs = performance.now() - loadStarted;
  const dispatch = createMockDispatcher(world);

  const list = async (query: string) => {
    const started = performance.now();
    const result = await dispatch({
      method: "GET",
      url: new URL(`${origin}/v1/dashboard/api-tokens?${query}`),
      headers: new Headers({ authorization: "Bearer mock-token-unrestricted" }),
      body: null,
    });
    if (result.kind !== "respond" || result.response.status !== 200) {
      throw new Error(`list ${query} did not answer 200: ${JSON.stringify(result)}`);
    }
    // The node adapter serialises every answer; so does the measurement.
    const bytes = JSON.stringify(result.response.body).length;
    return { ms: performance.now() - started, bytes };
  };

  const first = await list(`filter=${encodeURIComponent(FILTERS[0] ?? "")}`);
  const heapWorld = heapUsed();

  const times: number[] = [];
  for (let i = 0; i < requestCount; i++) {
    const filter = FILTERS[i % FILTERS.length] ?? "";
    const page = i % 3 === 0 ? 2 : 1;
    times.push((await list(`filter=${encodeURIComponent(filter)}&page=${page}&pageSize=100`)).ms);
  }
  const unfiltered: number[] = [];
  for (let i = 0; i < Math.min(requestCount, 100); i++) {
    unfiltered.push((await list("pageSize=100")).ms);
  }
  world.clock.dispose();
  process.stdout.write(
    `${JSON.stringify({
      tokens: tokenCount,
      requests: requestCount,
      gcExposed: gc !== undefined,
      loadMs,
      firstFilteredMs: first.ms,
      filteredMs: times,
      unfilteredMs: unfiltered,
      seedBytes: heapSeed - heapStart,
      worldBytes: heapWorld - heapSeed,
      filters: FILTERS,
    })}\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
