// The standalone server's HTTP edge over real sockets (issue 11, points 1, 2, 3 and 8): CORS for
// browsers on other origins, the Host check against DNS rebinding, the control API's origin check,
// request-targets that are not URLs, HEAD on every GET and the 401 challenges.
import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createClock, type RunningMockServer, startMockServer } from "../../mocks/node.js";
import { coreOf } from "../../mocks/world.js";
import { FROZEN_AT, PARTNER, TOKEN } from "../support/default-seed.js";
import { type RawAnswer, type RawRequest, rawClient, socketExchange } from "../support/raw-http.js";

const REBUILDS = "/api/integration/partners/hostpanel/rebuilds";
const PAGE = "http://localhost:5173";
const EVIL = "http://evil.example";

let mock: RunningMockServer;
let client: ReturnType<typeof rawClient>;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, clock: createClock({ frozenAt: FROZEN_AT }) });
  client = rawClient(mock.origin);
});
afterEach(() => mock.world.reset());
afterAll(async () => {
  client.close();
  await mock.close();
});

const port = () => Number(new URL(mock.origin).port);
const send = (
  method: string,
  path: string,
  headers: Array<[string, string]> = [],
  body: string | null = null,
) => client.send({ method, path, headers, body: body === null ? null : new TextEncoder().encode(body) });
const json = (answer: RawAnswer) => JSON.parse(answer.text) as Record<string, unknown>;
/** The world's state without what every authenticated request touches. */
const state = () => JSON.stringify(mock.world.state());

describe("CORS preflight (OPTIONS with Access-Control-Request-Method) from an allowed origin", () => {
  it.each([
    ["/v1/si/servers", "GET, HEAD, POST"],
    ["/v1/dashboard/api-tokens/3", "DELETE, GET, HEAD"],
    [REBUILDS, "POST"],
    ["/__mock/reset", "POST"],
    ["/__mock/snapshot", "GET, HEAD, PUT"],
  ])(
    "%s: 204 with the path's methods, the headers the APIs read, Vary and Max-Age",
    async (path, methods) => {
      const answer = await send("OPTIONS", path, [
        ["origin", PAGE],
        ["access-control-request-method", "POST"],
        ["access-control-request-headers", "authorization, content-type, x-trace-id"],
      ]);
      expect(answer.status).toBe(204);
      expect(answer.text).toBe("");
      expect(answer.headers["access-control-allow-origin"]).toBe(PAGE);
      expect(answer.headers["access-control-allow-methods"]).toBe(methods);
      expect(answer.headers["access-control-allow-headers"]).toBe(
        "Authorization, Content-Type, X-Partner-Id, X-API-Key, x-trace-id",
      );
      expect(answer.headers["access-control-max-age"]).toBe("600");
      expect(answer.headers.vary).toMatch(/\bOrigin\b/);
    },
  );

  it("comes before authentication and changes nothing: no rate-limit slot, no lastUsedAt, no reset", async () => {
    const before = state();
    const preflight = (path: string) =>
      send("OPTIONS", path, [
        ["origin", PAGE],
        ["access-control-request-method", "POST"],
        ["authorization", `Bearer ${TOKEN.unrestricted}`],
        ["x-partner-id", PARTNER.ok.id],
        ["x-api-key", PARTNER.ok.apiKey],
      ]);
    for (let i = 0; i < 40; i++) expect((await preflight(REBUILDS)).status).toBe(204);
    for (const path of ["/v1/si/servers", "/__mock/reset", "/__mock/clock/advance"]) {
      expect((await preflight(path)).status).toBe(204);
    }
    expect(state()).toBe(before);
    const submitted = await send(
      "POST",
      REBUILDS,
      [
        ["x-partner-id", PARTNER.ok.id],
        ["x-api-key", PARTNER.ok.apiKey],
        ["content-type", "application/json"],
      ],
      JSON.stringify({ sourceUrl: "https://www.example.com/" }),
    );
    expect(submitted.headers["ratelimit-remaining"]).toBe("29");
  });

  it("on a path the mock does not have is no preflight answer: 404, no allowed methods", async () => {
    const answer = await send("OPTIONS", "/v1/nothing", [
      ["origin", PAGE],
      ["access-control-request-method", "GET"],
    ]);
    expect(answer.status).toBe(404);
    expect(answer.headers["access-control-allow-methods"]).toBeUndefined();
  });

  it("a plain OPTIONS (no Access-Control-Request-Method) is a method the path does not have: 405", async () => {
    const answer = await send("OPTIONS", "/v1/si/servers", [["origin", PAGE]]);
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe("GET, HEAD, POST");
  });
});

describe("CORS on actual answers", () => {
  it("every answer to an allowed origin carries Allow-Origin, Vary and the headers a page may read", async () => {
    const answers = [
      await send("GET", "/v1/si/servers", [
        ["origin", "http://127.0.0.1:3000"],
        ["authorization", `Bearer ${TOKEN.unrestricted}`],
      ]),
      await send("GET", "/v1/si/servers", [["origin", "http://[::1]:3000"]]),
      await send("POST", REBUILDS, [
        ["origin", "https://localhost"],
        ["x-partner-id", "1001"],
        ["x-api-key", "k"],
      ]),
      await send("DELETE", "/v1/si/servers", [["origin", PAGE]]),
      await send("GET", "/__mock/state", [["origin", PAGE]]),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 401, 401, 405, 200]);
    for (const answer of answers) {
      expect(answer.headers["access-control-allow-origin"]).toMatch(
        /^https?:\/\/(127\.0\.0\.1|\[::1\]|localhost)/,
      );
      expect(answer.headers.vary).toBe("Origin");
      expect(answer.headers["access-control-expose-headers"]).toBe(
        "WWW-Authenticate, Allow, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After",
      );
    }
  });

  it("an origin that is not allowed gets no CORS headers from the public APIs (and the answer is unchanged)", async () => {
    const answer = await send("GET", "/v1/si/servers", [
      ["origin", EVIL],
      ["authorization", `Bearer ${TOKEN.unrestricted}`],
    ]);
    expect(answer.status).toBe(200);
    expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
    expect(answer.headers["access-control-expose-headers"]).toBeUndefined();
    expect(answer.headers.vary).toBe("Origin");
    const preflight = await send("OPTIONS", REBUILDS, [
      ["origin", EVIL],
      ["access-control-request-method", "POST"],
    ]);
    expect(preflight.status).toBe(405);
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("exposes every response header the contract documents", async () => {
    const documented = new Set<string>();
    const collect = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(collect);
      if (typeof node !== "object" || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        if (key === "headers" && typeof value === "object" && value !== null) {
          for (const name of Object.keys(value)) documented.add(name);
        }
        collect(value);
      }
    };
    for (const file of ["openapi/dashboard.yaml", "openapi/rebuild.yaml"])
      collect(parse(readFileSync(file, "utf8")));
    // Callback requests carry the webhook key; no answer does.
    documented.delete("X-API-Key");
    expect(documented.size).toBeGreaterThanOrEqual(6);
    const answer = await send("GET", "/v1/si/servers", [["origin", PAGE]]);
    const exposed = (answer.headers["access-control-expose-headers"] as string).split(", ");
    for (const header of documented) expect(exposed, header).toContain(header);
  });
});

describe("the control API refuses requests from origins that are not allowed, before anything changes", () => {
  it.each([
    ["POST", "/__mock/reset", null],
    ["POST", "/__mock/partners/1001/rotate-key", null],
    ["GET", "/__mock/state", null],
    ["GET", "/__mock/snapshot", null],
    ["PUT", "/__mock/faults", '{"errorRate":1}'],
    ["POST", "/__mock/clock/advance", '{"seconds":60}'],
    ["OPTIONS", "/__mock/reset", null],
  ])("%s %s from %s: 403 FORBIDDEN in the error envelope", async (method, path, body) => {
    const owner = coreOf(mock.world).dashboard.authenticate(`Bearer ${TOKEN.unrestricted}`);
    coreOf(mock.world).dashboard.createApiToken(owner, {
      name: "still here after the refused request",
      claims: [],
    });
    const before = state();
    const headers: Array<[string, string]> = [
      ["origin", EVIL],
      ["content-type", "text/plain"],
    ];
    if (method === "OPTIONS") headers.push(["access-control-request-method", "POST"]);
    const answer = await send(method, path, headers, body);
    expect(answer.status).toBe(403);
    expect(json(answer)).toEqual({ message: expect.stringContaining(EVIL), error: { code: "FORBIDDEN" } });
    expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
    expect(state()).toBe(before);
  });

  it("an allowed origin (or none, as from curl) may use it", async () => {
    expect((await send("POST", "/__mock/reset", [["origin", "http://127.0.0.1:8080"]])).status).toBe(204);
    expect((await send("POST", "/__mock/reset")).status).toBe(204);
  });
});

describe("the Host check (DNS rebinding)", () => {
  it.each([
    ["GET", "/__mock/state"],
    ["GET", "/__mock/snapshot"],
    ["POST", "/__mock/reset"],
    ["GET", "/v1/si/servers"],
    ["POST", REBUILDS],
    ["GET", "/nothing/here"],
    ["OPTIONS", "/v1/si/servers"],
  ])("%s %s with Host evil.example: 403 with a JSON error, nothing changed", async (method, path) => {
    const before = state();
    const answer = await send(method, path, [
      ["host", `evil.example:${port()}`],
      ["origin", `http://evil.example:${port()}`],
      ["access-control-request-method", "GET"],
      ["authorization", `Bearer ${TOKEN.unrestricted}`],
    ]);
    expect(answer.status).toBe(403);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(json(answer)).toEqual({
      message: expect.stringContaining("--allowed-host"),
      error: { code: "FORBIDDEN" },
    });
    expect(state()).toBe(before);
  });

  it("an absolute-form request-target names the host itself (its authority is checked)", async () => {
    const refused = await socketExchange(
      port(),
      `GET http://evil.example/__mock/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    expect(refused.status).toBe(403);
    const allowed = await socketExchange(
      port(),
      `GET http://localhost:${port()}/__mock/state HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`,
    );
    expect(allowed.status).toBe(200);
  });

  it("a request-target's path stays a path: `/\\host/…` and `http://host//other/…` name no other host", async () => {
    const exchange = (target: string) =>
      socketExchange(
        port(),
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN.unrestricted}\r\nConnection: close\r\n\r\n`,
      );
    expect((await exchange("/v1/si/servers")).status).toBe(200);
    // Resolved against the origin, `/\` would start an authority (WHATWG URL) and this would be the
    // servers list of host 127.0.0.1:<port>; it is the path `//127.0.0.1:<port>/v1/si/servers`.
    const backslash = await exchange(`/\\127.0.0.1:${port()}/v1/si/servers`);
    expect(backslash.status).toBe(404);
    expect(JSON.parse(backslash.body)).toMatchObject({
      message: expect.stringContaining(`//127.0.0.1:${port()}/v1`),
    });
    const doubled = await exchange(`http://127.0.0.1:${port()}//127.0.0.1:${port()}/v1/si/servers`);
    expect(doubled.status).toBe(404);
    expect(JSON.parse(doubled.body)).toMatchObject({
      message: expect.stringContaining(`//127.0.0.1:${port()}/v1`),
    });
  });

  it("--allowed-host and the --host value are answered; CORS can be turned off", async () => {
    const other = await startMockServer({
      port: 0,
      clock: createClock({ frozenAt: FROZEN_AT }),
      allowedHosts: ["mock.dev.example"],
      cors: false,
    });
    try {
      const raw = rawClient(other.origin);
      const go = (req: Partial<RawRequest>) =>
        raw.send({ method: "GET", path: "/__mock/faults", headers: [], body: null, ...req });
      expect((await go({ headers: [["host", "mock.dev.example:80"]] })).status).toBe(200);
      expect((await go({ headers: [["host", "other.dev.example"]] })).status).toBe(403);
      const loopbackPage = await go({ headers: [["origin", PAGE]] });
      expect(loopbackPage.status).toBe(403);
      const publicApi = await go({ path: "/v1/si/servers", headers: [["origin", PAGE]] });
      expect(publicApi.status).toBe(401);
      expect(publicApi.headers["access-control-allow-origin"]).toBeUndefined();
      expect(publicApi.headers.vary).toBeUndefined();
      // Same origin as the mock itself: not cross-site.
      expect((await go({ headers: [["origin", other.origin]] })).status).toBe(200);
      raw.close();
    } finally {
      await other.close();
    }
  });

  it("--cors-origin adds origins; * allows any", async () => {
    const other = await startMockServer({
      port: 0,
      clock: createClock({ frozenAt: FROZEN_AT }),
      corsOrigins: ["https://app.example.test:8443", "*"],
    });
    try {
      const raw = rawClient(other.origin);
      const answer = await raw.send({
        method: "POST",
        path: "/__mock/reset",
        headers: [["origin", EVIL]],
        body: null,
      });
      expect(answer.status).toBe(204);
      expect(answer.headers["access-control-allow-origin"]).toBe(EVIL);
      raw.close();
    } finally {
      await other.close();
    }
  });

  it("a bad --cors-origin or --allowed-host value is refused before the server binds", async () => {
    await expect(startMockServer({ port: 0, corsOrigins: ["app.example.test"] })).rejects.toThrow(
      /not an origin/,
    );
    await expect(startMockServer({ port: 0, allowedHosts: ["a b"] })).rejects.toThrow(/not a host/);
  });
});

describe("request-targets that are not URLs get 400, and the server goes on", () => {
  it.each(["http://[", "http://[::1", "//[", "http://exa%20mple/", "http://:99999/", "ftp://x/y"])(
    "GET %s",
    async (target) => {
      const answer = await socketExchange(
        port(),
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      );
      expect(answer.status, answer.body).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({
        message: expect.any(String),
        error: { code: "VALIDATION_FAILED" },
        errors: [
          { type: "invalid_format", path: "", message: "must have a request-target that is a valid URL" },
        ],
      });
    },
  );

  it("malformed request lines get a JSON 400 too; the server still answers afterwards", async () => {
    for (const line of [
      "GET",
      "GET / HTTP/9.9",
      "\u0000\u0001\u0002",
      "GET /\u0007 HTTP/1.1",
      "G E T / HTTP/1.1",
      "GET http://exa mple/ HTTP/1.1",
    ]) {
      const answer = await socketExchange(port(), `${line}\r\nHost: 127.0.0.1\r\n\r\n`, { waitMs: 2000 });
      expect(answer.status, line).toBe(400);
      expect(answer.closedByServer, line).toBe(true);
      expect(JSON.parse(answer.body), line).toMatchObject({ error: { code: "VALIDATION_FAILED" } });
    }
    const after = await send("GET", "/v1/si/servers", [["authorization", `Bearer ${TOKEN.unrestricted}`]]);
    expect(after.status).toBe(200);
  });
});

describe("HEAD on every GET operation", () => {
  it.each([
    ["/v1/si/servers", TOKEN.unrestricted, 200],
    ["/v1/si/servers?page=0", TOKEN.unrestricted, 400],
    ["/v1/dashboard/api-tokens", TOKEN.manage, 200],
    ["/v1/dashboard/api-tokens/3", TOKEN.manage, 200],
    ["/v1/dashboard/api-tokens/999", TOKEN.manage, 404],
    ["/v1/accounts/team-guid?email=owner@example.com", TOKEN.unrestricted, 200],
    ["/v1/si/servers", "nobody", 401],
    ["/__mock/state", "", 200],
    ["/__mock/deliveries", "", 200],
    ["/__mock/faults", "", 200],
    ["/__mock/webhook-sink/1001", "", 200],
  ])(
    "HEAD %s: the GET answer's status and headers, Content-Length included, no body",
    async (path, token, status) => {
      const headers: Array<[string, string]> = token ? [["authorization", `Bearer ${token}`]] : [];
      const get = await send("GET", path, headers);
      const head = await send("HEAD", path, headers);
      expect([get.status, head.status]).toEqual([status, status]);
      expect(head.text).toBe("");
      const { date: _a, ...getHeaders } = get.headers;
      const { date: _b, ...headHeaders } = head.headers;
      expect(headHeaders).toEqual(getHeaders);
      expect(Number(head.headers["content-length"])).toBe(Buffer.byteLength(get.text));
    },
  );

  it("HEAD appears in Allow wherever GET does", async () => {
    const answer = await send("PATCH", "/v1/dashboard/api-tokens/3", [
      ["authorization", `Bearer ${TOKEN.unrestricted}`],
    ]);
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe("DELETE, GET, HEAD");
    expect((await send("PUT", REBUILDS)).headers.allow).toBe("POST");
  });
});

describe("401 carries WWW-Authenticate", () => {
  it.each([
    [[], 'Bearer realm="dashboard"'],
    [[["authorization", "Bearer wrong"]], 'Bearer realm="dashboard", error="invalid_token"'],
    [[["authorization", `Bearer ${TOKEN.expired}`]], 'Bearer realm="dashboard", error="invalid_token"'],
    [[["authorization", "Basic abc"]], 'Bearer realm="dashboard", error="invalid_token"'],
  ] as Array<[Array<[string, string]>, string]>)("dashboard %j: %s", async (headers, challenge) => {
    const answer = await send("GET", "/v1/dashboard/api-tokens", headers);
    expect(answer.status).toBe(401);
    expect(answer.headers["www-authenticate"]).toBe(challenge);
  });

  it.each([
    [[]],
    [[["x-partner-id", "1001"]]],
    [
      [
        ["x-partner-id", "1001"],
        ["x-api-key", PARTNER.ok.webhookApiKey],
      ],
    ],
    [
      [
        ["x-partner-id", "9999"],
        ["x-api-key", "x"],
      ],
    ],
  ] as Array<[Array<[string, string]>]>)("rebuild %j: names the two headers", async (headers) => {
    const answer = await send("POST", REBUILDS, headers);
    expect(answer.status).toBe(401);
    expect(answer.headers["www-authenticate"]).toBe(
      'ApiKey realm="rebuild", headers="X-Partner-Id X-API-Key"',
    );
  });

  it("no other status carries it", async () => {
    const forbidden = await send("GET", "/v1/si/servers", [["authorization", `Bearer ${TOKEN.manage}`]]);
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers["www-authenticate"]).toBeUndefined();
  });
});
