import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { createHandlers, createMockWorld } from "../../mocks/index.js";
import type { Figure } from "../lib/figures.js";
import type { BenchMode } from "../lib/mode.js";
import { AUTH } from "../lib/servers.js";
import { median } from "../lib/stats.js";

// Short blocks keep the two sides close in time on a shared machine (as in the SDK section).
const BLOCK = 20;

/**
 * 7. The mock inside a test process, as `examples/in-process` uses it: the per-request cost of
 * `setupServer(...createHandlers(world))` against an MSW handler that returns the same JSON as a
 * constant (what a hand-written MSW mock costs at least), one fetch at a time, the two sides taking
 * turns in blocks on one MSW server; and `world.reset()` between tests, with the default seed,
 * against creating a new world.
 */
export async function benchInProcess(mode: BenchMode, log: (line: string) => void) {
  const section = "7. In-process (MSW)";
  const world = createMockWorld();
  const url = `${world.origin}/v1/si/servers`;
  const mockHandlers = createHandlers(world);
  const server = setupServer(...mockHandlers);
  server.listen({ onUnhandledRequest: "error" });
  try {
    const body = (await (await fetch(url, { headers: AUTH })).json()) as Record<string, unknown>;
    const staticHandler = http.get(url, () => HttpResponse.json(body));
    type Side = "mock" | "static";
    const handlersOf: Record<Side, Parameters<typeof server.resetHandlers>> = {
      mock: mockHandlers,
      static: [staticHandler],
    };
    const call = async () => {
      const response = await fetch(url, { headers: AUTH });
      if (response.status !== 200) throw new Error(`answered ${response.status}`);
      await response.json();
    };
    const block = async (side: Side, count: number) => {
      server.resetHandlers(...handlersOf[side]);
      const wall: number[] = [];
      for (let i = 0; i < count; i++) {
        const started = performance.now();
        await call();
        wall.push((performance.now() - started) * 1000);
      }
      return median(wall);
    };
    for (const side of ["mock", "static"] as const) await block(side, mode.sdkWarmup);
    const rounds: Array<Record<Side, number>> = [];
    for (let done = 0; done < mode.sdkCalls; done += BLOCK) {
      const count = Math.min(BLOCK, mode.sdkCalls - done);
      const order: Side[] = rounds.length % 2 === 0 ? ["mock", "static"] : ["static", "mock"];
      const round: Partial<Record<Side, number>> = {};
      for (const side of order) round[side] = await block(side, count);
      rounds.push(round as Record<Side, number>);
    }
    const perRequest = {
      mock: median(rounds.map((r) => r.mock)),
      static: median(rounds.map((r) => r.static)),
    };
    const requestRatio = median(rounds.map((r) => r.mock / r.static));

    // Between tests: the default seed back, against a world made anew (what a test could do instead).
    const resets: number[] = [];
    const creations: number[] = [];
    const times = Math.max(10, Math.round(mode.sdkCalls / 4));
    for (let i = 0; i < times; i++) {
      let started = performance.now();
      world.reset();
      resets.push((performance.now() - started) * 1000);
      started = performance.now();
      createMockWorld();
      creations.push((performance.now() - started) * 1000);
    }
    const reset = median(resets);
    const create = median(creations);
    log(
      `${section}: per request µs mock ${perRequest.mock.toFixed(1)}, static MSW handler ${perRequest.static.toFixed(1)} ` +
        `(${mode.sdkCalls} calls each); world.reset() ${reset.toFixed(1)} µs, createMockWorld() ${create.toFixed(1)} µs`,
    );
    const MSW_STATIC = "an MSW handler returning the same JSON";
    const figures: Figure[] = [
      {
        section,
        name: "GET /v1/si/servers through setupServer(...createHandlers(world)), per request",
        value: perRequest.mock,
        unit: "µs",
        compared: { label: MSW_STATIC, value: perRequest.static },
        ratio: requestRatio,
        ratioOf: `× ${MSW_STATIC}`,
        note: "median wall time of one fetch in the test process; MSW's own interception is in both",
      },
      {
        section,
        name: "world.reset() with the default seed",
        value: reset,
        unit: "µs",
        compared: { label: "createMockWorld()", value: create },
        ratio: create > 0 ? reset / create : null,
        ratioOf: "× createMockWorld()",
        note: "what `afterEach(() => world.reset())` costs each test",
      },
    ];
    return { figures, raw: { calls: mode.sdkCalls, rounds: rounds.length, perRequest, reset, create } };
  } finally {
    server.close();
  }
}
