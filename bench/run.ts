/**
 * `npm run bench`: the mock against the raw node:http ceiling and Prism, the SDK against raw fetch,
 * bundle sizes and scale, in one run on one machine. Prints the table and writes
 * bench/results.json and bench/RESULTS.md. `--smoke` runs everything for a second or so (CI: it
 * runs and writes its files, into a temp dir unless `--out` says otherwise); targets never fail it.
 * `--only sdk,bundle` runs just those sections, and writes into a temp dir unless `--out` says otherwise.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildPrograms, type Programs, ROOT } from "./lib/build.js";
import { installExitGuards, stopAllChildren } from "./lib/children.js";
import type { Figure } from "./lib/figures.js";
import type { LoadResult } from "./lib/load.js";
import { type BenchMode, FULL, SMOKE } from "./lib/mode.js";
import { consoleTable, describeMachine, markdown } from "./lib/report.js";
import {
  fetchServersBody,
  type RunningServer,
  startCeiling,
  startMock,
  startPrism,
  writeBenchSeed,
} from "./lib/servers.js";
import { benchBundleSize } from "./sections/bundle-size.js";
import { benchColdStart } from "./sections/cold-start.js";
import { benchInProcess } from "./sections/in-process.js";
import { benchScale } from "./sections/scale.js";
import { benchSdkOverhead } from "./sections/sdk-overhead.js";
import {
  benchGet,
  benchPost,
  benchPostStateFile,
  CEILING,
  MOCK,
  PRISM,
  WITHOUT_STATE_FILE,
} from "./sections/throughput.js";

// `--only` names: each section's own.
const SECTIONS = [
  "bundle",
  "get",
  "post",
  "post-state-file",
  "sdk",
  "cold-start",
  "in-process",
  "scale",
] as const;
type Section = (typeof SECTIONS)[number];

function parseArgs(argv: readonly string[]): { mode: BenchMode; outDir: string; only: ReadonlySet<Section> } {
  const smoke = argv.includes("--smoke");
  const value = (flag: string) => (argv.includes(flag) ? (argv[argv.indexOf(flag) + 1] ?? "") : undefined);
  const out = value("--out");
  const only = value("--only")?.split(",");
  const unknown = argv.filter(
    (arg, i) =>
      arg !== "--smoke" &&
      arg !== "--out" &&
      arg !== "--only" &&
      !["--out", "--only"].includes(argv[i - 1] ?? ""),
  );
  if (unknown.length > 0 || out === "" || only?.some((name) => !SECTIONS.includes(name as Section))) {
    console.error(`usage: tsx bench/run.ts [--smoke] [--out DIR] [--only ${SECTIONS.join(",")}]`);
    process.exit(2);
  }
  return {
    mode: smoke ? SMOKE : FULL,
    // A partial run never replaces the committed results.
    outDir:
      out ??
      (smoke || only
        ? join(tmpdir(), `rebuild-dashboard-kit-bench-${smoke ? "smoke" : "partial"}`)
        : join(ROOT, "bench")),
    only: new Set((only ?? SECTIONS) as Section[]),
  };
}

function roundTable(rounds: Array<Record<string, LoadResult>>, labels: readonly string[]): string[] {
  const present = labels.filter((label) => rounds.some((round) => round[label]));
  const others = present.filter((label) => label !== MOCK);
  const header = [
    "Round",
    ...present.map((l) => `${l}: req/s, p50 / p99 ms, server CPU µs/req`),
    ...others.map((l) => `mock ÷ ${l} (req/s)`),
  ];
  const cell = (r: LoadResult | undefined) =>
    r
      ? `${Math.round(r.requestsPerSecond).toLocaleString("en-US")}, ${r.p50Ms.toFixed(2)} / ${r.p99Ms.toFixed(2)}, ` +
        `${r.serverCpuMicrosPerRequest?.toFixed(0) ?? "—"}`
      : "—";
  return [
    `| ${header.join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    ...rounds.map((round, i) => {
      const ratios = others.map((label) => {
        const ours = round[MOCK]?.requestsPerSecond;
        const theirs = round[label]?.requestsPerSecond;
        return ours && theirs ? `${(ours / theirs).toFixed(2)}×` : "—";
      });
      return `| ${[String(i + 1), ...present.map((label) => cell(round[label])), ...ratios].join(" | ")} |`;
    }),
  ];
}

const METHOD = [
  "- Servers run as separate processes on 127.0.0.1: our mock is `mocks/server/cli.ts` bundled ahead of time " +
    "with esbuild and started with `node` (`--quiet`, partner 1001 allowed 1,000,000 requests per hour, " +
    "rebuilds complete after 1 s so completions and their callbacks to the built-in sink run during the POST " +
    "runs); the ceiling is a raw `node:http` server returning the same servers JSON byte for byte (GET) or " +
    "parsing the body and answering 202 with two fresh UUIDs (POST); Prism 5 serves `openapi/dashboard.yaml` " +
    "(`--verboseLevel error`, started with `node` rather than npx).",
  "- Load: autocannon in the bench process, fixed connections and duration, one warm-up run per server, then " +
    "rounds in which every server runs once, in an order rotated each round. Figures are medians over the " +
    "rounds; each ratio is the median of the ratios taken within one round. GET sends " +
    "`Authorization: Bearer mock-token-unrestricted` (authentication, authorization, pagination, JSON). POST " +
    "sends a new `sourceUrl` each time (every answer 202 = a new rebuild); the mock is reset after each run. " +
    "Server CPU time per request is read from /proc for each server process over each run: it depends far " +
    "less than requests/s on the load generator and on other processes sharing the cores.",
  "- POST with a state file (2b): the POST run above on a mock started with `--state-file` (a new file in a " +
    "temp dir), where each 202 leaves only once its change is on disk (file and directory synced, one write for " +
    "every answer waiting), alternating with the same mock without a state file; reset after each run as above. " +
    "`tsx bench/run.ts --only post-state-file` runs this section alone (files to a temp dir).",
  "- Cold start: spawn → first 200 on GET /v1/si/servers (Prism: /si/servers), polled every 5 ms on fresh " +
    "connections; median of several starts, alternating with starts of the raw node:http server (node's own " +
    "start-up on the machine at that moment).",
  "- SDK overhead: `new DashboardClient({ baseUrl, token }).servers.list()` vs `fetch(url, { headers })` + " +
    "`json()` of the same URL on the raw node:http server; vs that raw call given a 60 s timeout through an " +
    "AbortController (what every SDK attempt carries); and a client with `timeoutMs: Infinity` (no signal of " +
    "its own) vs the bare call. Sequential calls in blocks of 20, one block per side per round in a rotated " +
    "order, after a warm-up; figures are medians over rounds, each ratio the median of the ratios within a round.",
  "- In-process: one `setupServer` in the bench process, its handlers switched per block between " +
    "`createHandlers(world)` and one `http.get` returning the same servers JSON as a constant; sequential " +
    "`fetch` calls in blocks of 20, alternating, after a warm-up; the ratio is the median of the ratios within " +
    "a round. `world.reset()` and `createMockWorld()` with the default seed, timed alternately.",
  "- Bundle size: an app entry re-exporting only the named imports, bundled by esbuild (minify, browser, ESM), " +
    "gzip level 9 with node:zlib; 1 kB = 1000 B.",
  "- Scale: a world whose user 1 owns the extra tokens (varied names), requests through the real dispatcher " +
    "in-process including JSON serialisation, pageSize=100, filters from one match to a fifth of all tokens " +
    "and none; heap measured with `--expose-gc`.",
];

async function main() {
  const { mode, outDir, only } = parseArgs(process.argv.slice(2));
  installExitGuards();
  const log = (line: string) => console.log(line);
  const machine = describeMachine();
  log(
    `bench (${mode.name}) on ${machine.cpu} × ${machine.cores}, node ${machine.node}, load ${machine.loadAverageAtStart.join(" ")}`,
  );

  const figures: Figure[] = [];
  const warnings: string[] = [];
  const details: string[] = [];
  const raw: Record<string, unknown> = {};
  let failed = false;
  const section = async (name: string, run: () => Promise<void>, key?: Section) => {
    if (key && !only.has(key)) return;
    try {
      await run();
    } catch (error) {
      failed = true;
      const message = error instanceof Error ? error.message : String(error);
      warnings.push(`${name} failed: ${message.split("\n")[0]}`);
      console.error(`${name} failed:`, error);
    }
  };

  let programs: Programs | undefined;
  try {
    programs = await buildPrograms();
    const built = programs;
    const seedFile = await writeBenchSeed(built.dir);

    await section(
      "bundle size",
      async () => {
        const result = await benchBundleSize(log);
        figures.push(...result.figures);
        raw.bundles = result.raw;
      },
      "bundle",
    );

    let mock: RunningServer | undefined;
    let ceiling: RunningServer | undefined;
    await section("server start", async () => {
      mock = await startMock(built.mockCli, ["--seed", seedFile, "--rebuild-delay", "1"]);
      ceiling = await startCeiling(built.ceiling, await fetchServersBody(mock.origin));
    });
    if (mock && ceiling) {
      const servers = { mock, ceiling };
      await section(
        "GET throughput",
        async () => {
          const prism = mode.includePrism ? await startPrism() : undefined;
          try {
            const result = await benchGet({ mode, ...servers, prism, log });
            figures.push(...result.figures);
            warnings.push(...result.warnings);
            details.push(
              "### GET /v1/si/servers",
              "",
              ...roundTable(result.rounds, [MOCK, CEILING, PRISM]),
              "",
            );
            raw.get = result.rounds;
          } finally {
            await prism?.child.stop();
          }
        },
        "get",
      );
      await section(
        "POST throughput",
        async () => {
          const result = await benchPost({ mode, ...servers, prism: undefined, log });
          figures.push(...result.figures);
          warnings.push(...result.warnings);
          details.push("### POST rebuild submission", "", ...roundTable(result.rounds, [MOCK, CEILING]), "");
          raw.post = result.rounds;
        },
        "post",
      );
      await section(
        "SDK overhead",
        async () => {
          const result = await benchSdkOverhead(mode, servers.ceiling.origin, log);
          figures.push(...result.figures);
          raw.sdk = result.raw;
        },
        "sdk",
      );
      await mock.child.stop();
      await ceiling.child.stop();
    }

    await section(
      "POST with a state file",
      async () => {
        const stateful = await startMock(built.mockCli, [
          "--seed",
          seedFile,
          "--rebuild-delay",
          "1",
          "--state-file",
          join(built.dir, "bench-state.json"),
        ]);
        try {
          const plain = await startMock(built.mockCli, ["--seed", seedFile, "--rebuild-delay", "1"]);
          try {
            const result = await benchPostStateFile({ mode, stateful, plain, log });
            figures.push(...result.figures);
            warnings.push(...result.warnings);
            details.push(
              "### POST rebuild submission with --state-file",
              "",
              ...roundTable(result.rounds, [MOCK, WITHOUT_STATE_FILE]),
              "",
            );
            raw.postStateFile = result.rounds;
          } finally {
            await plain.child.stop();
          }
        } finally {
          await stateful.child.stop();
        }
      },
      "post-state-file",
    );
    await section(
      "cold start",
      async () => {
        const result = await benchColdStart(mode, built, log);
        figures.push(...result.figures);
        raw.coldStart = result.raw;
      },
      "cold-start",
    );
    await section(
      "in-process",
      async () => {
        const result = await benchInProcess(mode, log);
        figures.push(...result.figures);
        raw.inProcess = result.raw;
      },
      "in-process",
    );
    await section(
      "scale",
      async () => {
        const result = await benchScale(mode, built.scaleWorker, log);
        figures.push(...result.figures);
        raw.scale = result.raw;
      },
      "scale",
    );
  } finally {
    await stopAllChildren();
    await programs?.remove();
  }

  const order = (f: Figure) => f.section;
  figures.sort((a, b) => order(a).localeCompare(order(b), "en", { numeric: true }));
  await mkdir(outDir, { recursive: true });
  const json = { mode: mode.name, machine, figures, warnings, raw };
  await writeFile(join(outDir, "results.json"), `${JSON.stringify(json, null, 2)}\n`);
  await writeFile(
    join(outDir, "RESULTS.md"),
    markdown({ mode: mode.name, machine, figures, warnings, details, method: METHOD }),
  );
  log(`\n${consoleTable(figures)}\n`);
  for (const warning of warnings) log(`warning: ${warning}`);
  const misses = figures.filter((f) => f.target?.pass === false);
  log(misses.length === 0 ? "every target met" : `${misses.length} target(s) missed`);
  log(`wrote ${join(outDir, "results.json")} and ${join(outDir, "RESULTS.md")}`);
  // A section that could not run fails the bench; a missed target does not (it is a finding).
  process.exitCode = failed ? 1 : 0;
}

main().catch(async (error: unknown) => {
  console.error(error);
  await stopAllChildren();
  process.exit(1);
});
