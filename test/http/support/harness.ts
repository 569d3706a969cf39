import { type SetupServer, setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";
import {
  createClock,
  createHandlers,
  createMockWorld,
  type MockSeed,
  type MockWorld,
  seededRandom,
} from "../../../mocks/index.js";
import { type RunningMockServer, startMockServer } from "../../../mocks/node.js";
import { FROZEN_AT } from "../../support/default-seed.js";
import { type Client, createClient } from "./client.js";
import { controlApi } from "./control.js";

export interface MockHarness {
  readonly world: MockWorld;
  readonly origin: string;
  readonly call: Client;
  readonly control: ReturnType<typeof controlApi>;
}

export interface MswMockOptions {
  seed?: MockSeed;
  /** Default "error": a request no handler answers fails the test. */
  onUnhandledRequest?: "error" | "bypass";
}

/**
 * A world on a frozen clock served through MSW (`setupServer(...createHandlers(world))`) for the
 * file's tests, back to its seed after each test. `server` takes extra handlers (`server.use`),
 * which are dropped after each test too.
 */
export function useMswMock(options: MswMockOptions = {}): MockHarness & { readonly server: SetupServer } {
  const world = createMockWorld({
    clock: createClock({ frozenAt: FROZEN_AT }),
    random: seededRandom(42),
    seed: options.seed ?? {},
  });
  const server = setupServer(...createHandlers(world));
  beforeAll(() => server.listen({ onUnhandledRequest: options.onUnhandledRequest ?? "error" }));
  afterEach(() => {
    server.resetHandlers();
    world.reset();
  });
  afterAll(() => server.close());
  const call = createClient(world.origin);
  return { world, server, origin: world.origin, call, control: controlApi(call) };
}

/** The same, served by the standalone node:http server on 127.0.0.1 and a free port. */
export function useNodeMock(seed: MockSeed = {}): MockHarness & { readonly running: RunningMockServer } {
  let running: RunningMockServer | undefined;
  beforeAll(async () => {
    running = await startMockServer({
      port: 0,
      clock: createClock({ frozenAt: FROZEN_AT }),
      random: seededRandom(42),
      seed,
    });
  });
  afterEach(() => running?.world.reset());
  afterAll(() => running?.close());
  const started = () => {
    if (!running) throw new Error("the mock server is not running yet (use it inside a test)");
    return running;
  };
  return {
    get running() {
      return started();
    },
    get world() {
      return started().world;
    },
    get origin() {
      return started().origin;
    },
    call: (call) => createClient(started().origin)(call),
    get control() {
      return controlApi(createClient(started().origin));
    },
  };
}
