// Issue "contract conformance", item 7: credentials and promptTokens, followed through a whole
// session of SDK and standalone mock, successes, refusals, faults and timeouts included. None may
// appear in a URL either side saw, a log line of either side, or an error message (SDK errors with
// their causes, and the mock's error bodies); a token's secret never comes back after its creation.
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClock, type MockObservation, seededRandom } from "../../mocks/index.js";
import { type RequestLogEntry, type RunningMockServer, startMockServer } from "../../mocks/node.js";
import {
  buildPromptToken,
  DashboardClient,
  type Logger,
  PromptTokenError,
  parsePromptToken,
  RebuildClient,
} from "../../src/index.js";

let mock: RunningMockServer;
const observed: MockObservation[] = [];
const requestLog: RequestLogEntry[] = [];
const logLines: string[] = [];
const sentUrls: string[] = [];
const errors: unknown[] = [];
/** Every secret of the session, added as it appears. */
const secrets = new Set([
  "mock-token-unrestricted",
  "mock-token-manage",
  "mock-rebuild-key-1001",
  "mock-webhook-key-1001",
]);
/** Token secrets with the index (in `observed`) of the answer that created them. */
const created: { secret: string; at: number }[] = [];

const logger: Logger = Object.fromEntries(
  (["debug", "info", "warn", "error"] as const).map((level) => [
    level,
    (message: string, ...details: unknown[]) =>
      logLines.push(`${level} ${message} ${inspect(details, { depth: 6 })}`),
  ]),
) as unknown as Logger;

const fetchRecording = async (request: Request): Promise<Response> => {
  sentUrls.push(request.url);
  return globalThis.fetch(request);
};

const dashboard = (token: string, options: { timeoutMs?: number; maxRetries?: number } = {}) =>
  new DashboardClient({
    baseUrl: mock.dashboardBaseUrl,
    token,
    logger,
    fetch: fetchRecording,
    maxRetries: 3,
    maxRetryAfterMs: 100,
    ...options,
  });
const rebuild = (apiKey: string) =>
  new RebuildClient({
    baseUrl: mock.rebuildBaseUrl,
    partnerId: 1001,
    apiKey,
    logger,
    fetch: fetchRecording,
    maxRetries: 3,
    maxRetryAfterMs: 100,
  });

async function failing(call: PromiseLike<unknown>): Promise<void> {
  try {
    await call;
  } catch (error) {
    errors.push(error);
  }
}

beforeAll(async () => {
  mock = await startMockServer({
    port: 0,
    clock: createClock({ frozenAt: Date.parse("2026-03-01T12:00:00+00:00") }),
    random: seededRandom(77),
    observe: (observation) => observed.push(observation),
    onRequest: (entry) => requestLog.push(entry),
  });
  mock.world.upsertPartner(1001, { rateLimitPerHour: 10_000 });
});

afterAll(() => mock?.close());

describe("a session's secrets stay out of URLs, logs and errors", () => {
  beforeAll(async () => {
    const owner = dashboard("mock-token-unrestricted");
    for (const claims of [[], [{ name: "manage-api-tokens" as const }]]) {
      const token = await owner.apiTokens.create({ name: "secret-keeper", claims });
      secrets.add(token.token);
      created.push({ secret: token.token, at: observed.length - 1 });
    }
    const [fresh, manager] = created.map(({ secret }) => secret) as [string, string];
    await dashboard(fresh).servers.list();
    await dashboard(manager).apiTokens.list();
    for await (const token of owner.apiTokens.listAll({ pageSize: 3 }))
      expect(token).not.toHaveProperty("token");

    // Refusals: unknown, deleted and under-privileged tokens, a wrong key, the webhook key.
    const unknown = "mock-token-typo-3f9c2b7a51e84d06";
    const wrongKey = "rk-wrong-9d1c2e7f4b8a0d5";
    for (const value of [unknown, wrongKey]) secrets.add(value);
    await failing(dashboard(unknown).servers.list());
    await failing(
      dashboard(manager).servers.connect([{ address: "https://x.example.com", product: "plesk" }]),
    );
    await owner.apiTokens.delete((await owner.apiTokens.list({ filter: "secret-keeper" })).data[1]?.id ?? 0);
    await failing(dashboard(manager).apiTokens.list());
    await failing(rebuild(wrongKey).submit({ sourceUrl: "https://www.example.com/" }));
    await failing(rebuild("mock-webhook-key-1001").submit({ sourceUrl: "https://www.example.com/" }));
    await failing(rebuild("mock-rebuild-key-1001").submit({ sourceUrl: "http://192.168.0.1/" }));

    // A rebuild, its promptToken, and the magic link opened with it (and with a broken one).
    const submitted = await rebuild("mock-rebuild-key-1001").submit({
      sourceUrl: "https://www.example.com/",
    });
    await fetch(`${mock.origin}/__mock/clock/advance`, {
      method: "POST",
      body: '{"seconds":5}',
      headers: { "content-type": "application/json" },
    });
    const promptToken = buildPromptToken(submitted.projectId);
    secrets.add(promptToken);
    for (const token of [promptToken, `${promptToken.slice(0, -2)}!!`]) {
      await fetch(`${mock.origin}/__mock/magic-links/open`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ partnerId: 1001, promptToken: token, customerId: "c-1" }),
      });
    }
    for (const broken of [
      `${promptToken}%`,
      `${promptToken.slice(0, -1)}`,
      `x${promptToken}`,
      promptToken.replace(/=/g, ""),
    ]) {
      secrets.add(broken);
      try {
        parsePromptToken(broken);
      } catch (error) {
        expect(error).toBeInstanceOf(PromptTokenError);
        errors.push(error);
      }
    }

    // Faults: retried reads log each attempt; unsafe calls surface lost answers; a timeout.
    mock.world.setFaults({ errorRate: 0.3, resetRate: 0.3, latencyMs: 0 });
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        await failing(dashboard(fresh).servers.list());
        await failing(
          owner.apiTokens.create({ name: `under faults ${i}`, claims: [] }).then((t) => secrets.add(t.token)),
        );
        await failing(
          rebuild("mock-rebuild-key-1001").submit({ sourceUrl: `https://site${i}.example.com/` }),
        );
      }),
    );
    mock.world.setFaults({ errorRate: 0, resetRate: 0, latencyMs: 200 });
    await failing(dashboard(fresh, { timeoutMs: 20, maxRetries: 0 }).servers.list());
    mock.world.setFaults({ errorRate: 0, resetRate: 0, latencyMs: 0 });
    await fetch(`${mock.origin}/__mock/state`).then((r) => r.text());
    await fetch(`${mock.origin}/__mock/deliveries`).then((r) => r.text());
  }, 60_000);

  const leaks = (texts: string[]) =>
    [...secrets].flatMap((secret) =>
      texts
        .filter((text) => text.includes(secret) || text.includes(encodeURIComponent(secret)))
        .map((text) => `${secret} in ${text.slice(0, 200)}`),
    );

  it("the session exercised what it should, and a leak would be seen", () => {
    expect(leaks(["a line with mock-token-manage in it"])).toHaveLength(1);
    expect(errors.length).toBeGreaterThan(15);
    expect(logLines.some((line) => line.includes("retry"))).toBe(true);
    expect(errors.some((error) => (error as Error).name === "TimeoutError")).toBe(true);
    expect(errors.some((error) => (error as Error).name === "ConnectionError")).toBe(true);
  });

  it("never in a URL: neither one the SDK sent nor one the mock received", () => {
    const received = observed.flatMap((o) =>
      o.kind === "request" ? [o.request.url.href] : [o.delivery.url],
    );
    expect(received.length).toBeGreaterThan(50);
    expect(leaks([...sentUrls, ...received])).toEqual([]);
  });

  it("never in a log line of the SDK or of the mock's request log", () => {
    expect(leaks([...logLines, ...requestLog.map((entry) => JSON.stringify(entry))])).toEqual([]);
  });

  it("never in an error: SDK errors with their causes and properties, and the mock's error bodies", () => {
    const sdk = errors.map((error) =>
      [String(error), (error as Error).stack ?? "", inspect(error, { depth: 8, showHidden: true })].join(
        "\n",
      ),
    );
    const mockErrors = observed.flatMap((o) =>
      o.kind === "request" && o.response.status >= 400 ? [JSON.stringify(o.response.body)] : [],
    );
    expect(mockErrors.length).toBeGreaterThan(10);
    expect(leaks([...sdk, ...mockErrors])).toEqual([]);
  });

  it("a token's secret is in its creation answer and in no answer after it, /__mock included", () => {
    expect(created).toHaveLength(2);
    for (const { secret, at } of created) {
      const creation = observed[at];
      expect(creation?.kind === "request" && JSON.stringify(creation.response.body)).toContain(secret);
      const later = observed
        .slice(at + 1)
        .flatMap((o) => (o.kind === "request" ? [JSON.stringify(o.response.body) ?? ""] : [o.delivery.body]));
      expect(later.filter((body) => body.includes(secret))).toEqual([]);
    }
  });
});
