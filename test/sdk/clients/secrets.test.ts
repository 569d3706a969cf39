import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { ConnectionError, DashboardClient, RebuildClient } from "../../../src/index.js";
import {
  collectingLogger,
  DASHBOARD_URL,
  dashboardClient,
  faultsOffFrom,
  ORIGIN,
  rebuildClient,
  recordingFetch,
  rejection,
  setFaults,
  TOKEN,
  useMock,
} from "./harness.js";

const { world } = useMock();

const API_KEY = "mock-rebuild-key-1001";

/** Everything an error exposes: message, stack, own enumerable properties, and its causes'. */
function exposed(error: unknown, depth = 0): string {
  if (!(error instanceof Error) || depth > 4) return inspect(error, { depth: 6 });
  const props = Object.fromEntries(
    Object.entries(error).map(([k, v]) => [k, v instanceof Headers ? Object.fromEntries(v) : v]),
  );
  return [
    error.message,
    error.stack,
    JSON.stringify(props),
    inspect(error, { depth: 6 }),
    exposed(error.cause, depth + 1),
  ].join("\n");
}

describe("constructor validation", () => {
  const secret = "s3cr3t-value-that-must-not-leak";
  const bad: [string, () => unknown, RegExp][] = [
    ["no baseUrl", () => new DashboardClient({ token: secret } as never), /DashboardClient: baseUrl/],
    [
      "an empty baseUrl",
      () => new DashboardClient({ baseUrl: "", token: secret }),
      /DashboardClient: baseUrl/,
    ],
    [
      "a relative baseUrl",
      () => new DashboardClient({ baseUrl: "/v1", token: secret }),
      /baseUrl must be an absolute http or https URL/,
    ],
    [
      "an ftp baseUrl",
      () => new RebuildClient({ baseUrl: "ftp://x.example.com", partnerId: 1, apiKey: secret }),
      /RebuildClient: baseUrl/,
    ],
    [
      "no token",
      () => new DashboardClient({ baseUrl: DASHBOARD_URL } as never),
      /DashboardClient: token must be a non-empty header value without surrounding whitespace/,
    ],
    ["an empty token", () => new DashboardClient({ baseUrl: DASHBOARD_URL, token: "" }), /token/],
    [
      "a token that is not a string",
      () => new DashboardClient({ baseUrl: DASHBOARD_URL, token: 42 as never }),
      /token/,
    ],
    [
      "no apiKey",
      () => new RebuildClient({ baseUrl: ORIGIN, partnerId: 1001 } as never),
      /RebuildClient: apiKey must be a non-empty header value without surrounding whitespace/,
    ],
    ["an empty apiKey", () => new RebuildClient({ baseUrl: ORIGIN, partnerId: 1001, apiKey: "" }), /apiKey/],
    ...[0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, "1001" as never].map(
      (partnerId): [string, () => unknown, RegExp] => [
        `partnerId ${typeof partnerId} ${String(partnerId)}`,
        () => new RebuildClient({ baseUrl: ORIGIN, partnerId, apiKey: secret }),
        /RebuildClient: partnerId must be a positive integer/,
      ],
    ),
    ...[0, -5, Number.NaN, "1000" as never].map((timeoutMs): [string, () => unknown, RegExp] => [
      `timeoutMs ${typeof timeoutMs} ${String(timeoutMs)}`,
      () => new DashboardClient({ baseUrl: DASHBOARD_URL, token: secret, timeoutMs }),
      /DashboardClient: timeoutMs must be a number of milliseconds above 0, or Infinity for none/,
    ]),
    ...[-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "2" as never].map(
      (maxRetries): [string, () => unknown, RegExp] => [
        `maxRetries ${typeof maxRetries} ${String(maxRetries)}`,
        () => new RebuildClient({ baseUrl: ORIGIN, partnerId: 1001, apiKey: secret, maxRetries }),
        /RebuildClient: maxRetries must be an integer of 0 or more/,
      ],
    ),
    ...[-1, Number.NaN, "60000" as never].map((maxRetryAfterMs): [string, () => unknown, RegExp] => [
      `maxRetryAfterMs ${typeof maxRetryAfterMs} ${String(maxRetryAfterMs)}`,
      () => new DashboardClient({ baseUrl: DASHBOARD_URL, token: secret, maxRetryAfterMs }),
      /DashboardClient: maxRetryAfterMs must be a number of milliseconds, 0 or more/,
    ]),
  ];

  it.each(bad)("%s: TypeError with a clear message, never the secret", (_, construct, message) => {
    let error: unknown;
    try {
      construct();
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(message);
    expect(exposed(error)).not.toContain(secret);
  });

  it("a header value the runtime refuses: the TypeError does not quote the token", () => {
    const token = "abc\ndef-secret";
    let error: unknown;
    try {
      new DashboardClient({ baseUrl: DASHBOARD_URL, token });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(TypeError);
    expect(exposed(error)).not.toContain("def-secret");
  });

  it("trailing slashes on baseUrl are fine", async () => {
    const { fetch, requests } = recordingFetch();
    await dashboardClient(TOKEN.unrestricted, { baseUrl: `${DASHBOARD_URL}//`, fetch }).servers.list();
    expect(requests[0]?.url).toBe(`${DASHBOARD_URL}/si/servers`);
  });
});

describe("credentials stay private", () => {
  const clients = () => [dashboardClient(), rebuildClient()];

  it("no enumerable property, JSON form or inspection reveals them", () => {
    for (const client of clients()) {
      const views = [
        JSON.stringify(client),
        inspect(client, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
        JSON.stringify(Object.keys(client)),
        ...Object.values(client).map((group) =>
          inspect(group, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
        ),
      ].join("\n");
      expect(views).not.toContain(TOKEN.unrestricted);
      expect(views).not.toContain(API_KEY);
    }
    expect(Object.keys(dashboardClient())).toEqual(["servers", "apiTokens", "accounts"]);
    expect(Object.keys(rebuildClient())).toEqual([]);
  });

  it("they travel in headers only, never in a URL", async () => {
    const { fetch, requests } = recordingFetch();
    const dashboard = dashboardClient(TOKEN.unrestricted, { fetch });
    await dashboard.servers.list({ page: 1 });
    await dashboard.accounts.getTeamGuid("owner@example.com");
    await rebuildClient(1001, { fetch }).submit({ sourceUrl: "https://a.example.com/" });
    expect(requests).toHaveLength(3);
    for (const request of requests) {
      expect(request.url).not.toContain(TOKEN.unrestricted);
      expect(request.url).not.toContain(API_KEY);
    }
    expect(requests[0]?.headers.get("authorization")).toBe(`Bearer ${TOKEN.unrestricted}`);
    expect(requests[2]?.headers.get("x-api-key")).toBe(API_KEY);
  });

  it("the `headers` option cannot replace them", async () => {
    const { fetch, requests } = recordingFetch();
    await rebuildClient(1001, {
      fetch,
      headers: { "x-api-key": "other", "X-Partner-Id": "1002", "X-Trace": "t1" },
    }).submit({
      sourceUrl: "https://a.example.com/",
    });
    expect(requests[0]?.headers.get("x-api-key")).toBe(API_KEY);
    expect(requests[0]?.headers.get("x-partner-id")).toBe("1001");
    expect(requests[0]?.headers.get("x-trace")).toBe("t1");
  });

  it("a logger sees every attempt and retry, never a secret (nor a new token's)", async () => {
    const logger = collectingLogger();
    const dashboard = dashboardClient(TOKEN.unrestricted, { logger, maxRetries: 1 });
    const rebuild = rebuildClient(1001, { logger, maxRetries: 1 });
    const created = await dashboard.apiTokens.create({ name: "logged", claims: [] });
    await dashboard.servers.list();
    await rejection(dashboardClient("wrong-token-abc", { logger }).servers.list());
    await rebuild.submit({ sourceUrl: "https://a.example.com/" });
    await setFaults({ errorRate: 1 });
    const { fetch } = recordingFetch(faultsOffFrom(world, 2));
    await dashboardClient(TOKEN.unrestricted, { logger, fetch, maxRetries: 1 }).apiTokens.get(1);
    await rejection(rebuild.submit({ sourceUrl: "http://localhost/" }));

    const log = logger.lines.join("\n");
    expect(logger.lines.length).toBeGreaterThanOrEqual(8);
    expect(log).toContain("retry 1 of 1");
    expect(log).toContain("[REDACTED]");
    for (const secret of [TOKEN.unrestricted, API_KEY, "wrong-token-abc", created.token]) {
      expect(log).not.toContain(secret);
    }
  });

  it("no thrown error exposes them, whatever failed", async () => {
    const errors: unknown[] = [];
    errors.push(await rejection(dashboardClient(TOKEN.mcp).servers.list()));
    errors.push(await rejection(dashboardClient("wrong-token-abc").servers.list()));
    errors.push(
      await rejection(
        rebuildClient(1001, { apiKey: "wrong-key-abc" }).submit({ sourceUrl: "https://a.example.com/" }),
      ),
    );
    errors.push(await rejection(rebuildClient().submit({ sourceUrl: "not a url" })));
    await setFaults({ resetRate: 1 });
    errors.push(await rejection(dashboardClient(TOKEN.unrestricted, { maxRetries: 0 }).servers.list()));
    errors.push(
      await rejection(rebuildClient(1001, { maxRetries: 0 }).submit({ sourceUrl: "https://a.example.com/" })),
    );
    await setFaults({ resetRate: 0, latencyMs: 100 });
    errors.push(
      await rejection(dashboardClient(TOKEN.unrestricted, { maxRetries: 0, timeoutMs: 20 }).servers.list()),
    );

    // A custom fetch whose own error quotes the request's credentials.
    const leaky = async (request: Request): Promise<Response> => {
      throw Object.assign(new TypeError(`refused ${request.headers.get("authorization")}`), { request });
    };
    errors.push(
      await rejection(dashboardClient(TOKEN.unrestricted, { fetch: leaky, maxRetries: 0 }).servers.list()),
    );
    expect(errors.at(-1)).toBeInstanceOf(ConnectionError);

    for (const error of errors) {
      const text = exposed(error);
      for (const secret of [TOKEN.mcp, TOKEN.unrestricted, "wrong-token-abc", "wrong-key-abc", API_KEY]) {
        expect(text).not.toContain(secret);
      }
    }
  });
});
