import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createClock, createHandlers, createMockWorld, type MockWorld } from "../../../mocks/index.js";
import {
  DashboardClient,
  type DashboardClientOptions,
  type Logger,
  RebuildClient,
  type RebuildClientOptions,
} from "../../../src/index.js";
import { SERVER_1, SERVER_2, SERVER_3, TOKEN } from "../../support/default-seed.js";

export { TEAM_A_GUID, TEAM_B_GUID, TOKEN, USER_1_TOKEN_IDS } from "../../support/default-seed.js";
/** `closedPort()`: a port on 127.0.0.1 nothing listens on. */
export { freePort as closedPort } from "../../support/free-port.js";

export const FROZEN_AT = Date.parse("2026-11-22T00:00:00Z");
export const ORIGIN = "http://127.0.0.1:4010";
export const DASHBOARD_URL = `${ORIGIN}/v1`;

/** The seed's servers of team A, in connection order. */
export const SEED_SERVERS = [
  { guid: SERVER_1, address: "https://panel1.example.com:8443" },
  { guid: SERVER_2, address: "https://panel2.example.com:8443" },
  { guid: SERVER_3, address: "https://panel3.example.com:2083" },
] as const;

/**
 * A mock world on a frozen clock served in-process by MSW for the file's tests, back to its seed
 * (faults off) after each test. Requests to other origins go to the network (the closed-port test).
 */
export function useMock(): { world: MockWorld } {
  const world = createMockWorld({ clock: createClock({ frozenAt: FROZEN_AT }) });
  const server = setupServer(...createHandlers(world));
  beforeAll(() => server.listen({ onUnhandledRequest: "bypass" }));
  afterEach(() => world.reset());
  afterAll(() => server.close());
  return { world };
}

/** Calls the mock's control API (`/__mock`), failing on any non-2xx answer. */
export async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${ORIGIN}/__mock${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`control ${method} ${path} answered ${response.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

export const setFaults = (faults: { errorRate?: number; resetRate?: number; latencyMs?: number }) =>
  control("PUT", "/faults", faults);

/**
 * A `fetch` option that records every request the SDK sends, then lets MSW answer it. `before`
 * runs before request number `n` (from 1) goes out, e.g. to switch a fault off for the later
 * attempts: deciding before a request, not after the previous answer, keeps this independent of
 * how fast the SDK retries.
 */
export function recordingFetch(before?: (n: number) => void) {
  const requests: Request[] = [];
  const fetch = (request: Request): Promise<Response> => {
    requests.push(request.clone());
    before?.(requests.length);
    return globalThis.fetch(request);
  };
  return { fetch, requests };
}

/**
 * For `recordingFetch`: every fault of `world` off from request number `n` on. Set in-process, so
 * that request's own time (and timeout) does not include a control call.
 */
export const faultsOffFrom = (world: MockWorld, n: number) => (count: number) => {
  if (count === n) world.setFaults({ errorRate: 0, resetRate: 0, latencyMs: 0 });
};

export function dashboardClient(
  token: string = TOKEN.unrestricted,
  options: Partial<DashboardClientOptions> = {},
): DashboardClient {
  return new DashboardClient({ baseUrl: DASHBOARD_URL, token, ...options });
}

export function rebuildClient(partnerId = 1001, options: Partial<RebuildClientOptions> = {}): RebuildClient {
  return new RebuildClient({
    baseUrl: ORIGIN,
    partnerId,
    apiKey: `mock-rebuild-key-${partnerId}`,
    ...options,
  });
}

/** A logger that keeps every line, its details serialized, to search for secrets. */
export function collectingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep =
    (level: string) =>
    (message: string, ...details: unknown[]) => {
      lines.push(`${level} ${message} ${JSON.stringify(details, headersAsObject)}`);
    };
  return { lines, debug: keep("debug"), info: keep("info"), warn: keep("warn"), error: keep("error") };
}

function headersAsObject(_key: string, value: unknown): unknown {
  return value instanceof Headers ? Object.fromEntries(value) : value;
}

/** What a call rejected with (fails the test when it resolved). */
export async function rejection(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to reject, it resolved");
}
