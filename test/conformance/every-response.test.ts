// Issue "contract conformance", item 2: every response the contract documents, for every operation,
// and every callback shape, produced once on purpose. The suite-wide observer
// (test/support/conformance-setup.ts) validates each exchange; a key counts as covered only when its
// exchange conformed in both directions, so each test checks that its key is now covered.
import { describe, expect, it } from "vitest";
import {
  type Answer,
  bearer,
  dashboardAs,
  REBUILDS_PATH,
  rebuildHeaders,
  submitRebuild,
} from "../http/support/client.js";
import { useMswMock, useNodeMock } from "../http/support/harness.js";
import { suiteLog } from "../support/conformance-observer.js";
import { callbackExampleShapes, documentedResponses, EDGE_RESPONSES } from "../support/contract-inventory.js";
import { PARTNER, SERVER_1, TOKEN } from "../support/default-seed.js";
import { socketExchange } from "../support/raw-http.js";

const { world, call, control } = useMswMock();
/** What the suite-wide observer has seen conform so far in this file. */
const covered = () => suiteLog.record("").covered;

const OVERSIZED = "x".repeat(1024 * 1024 + 1);
const UNKNOWN_GUID = "00000000-0000-4000-8000-000000000000";
const as = (token: string) => dashboardAs(call, token);

/** Sends with every public request answered by an injected 503 (the `default` response). */
async function injected503(send: () => Promise<Answer>): Promise<Answer> {
  world.faults = { latencyMs: 0, errorRate: 1, resetRate: 0 };
  try {
    return await send();
  } finally {
    world.faults = { latencyMs: 0, errorRate: 0, resetRate: 0 };
  }
}

const raw = (method: string, path: string, token: string, body: string, type = "application/json") =>
  call({ method, path: `/v1${path}`, headers: { ...bearer(token), "content-type": type }, body });

const rebuildRaw = (body: string, type = "application/json") =>
  call({ method: "POST", path: REBUILDS_PATH, headers: { ...rebuildHeaders(), "content-type": type }, body });

type Case = [key: string, status: number, send: () => Promise<Answer>];

const D = "dashboard";
const R = `rebuild POST ${REBUILDS_PATH}`;
const server = { servers: [{ address: "https://panel9.example.com:8443", product: "plesk" }] };
const token = { name: "coverage", claims: [] };

const cases: Case[] = [
  [`${D} GET /si/servers 200`, 200, () => as(TOKEN.unrestricted)("GET", "/si/servers")],
  [`${D} GET /si/servers 400`, 400, () => as(TOKEN.unrestricted)("GET", "/si/servers?page=0")],
  [`${D} GET /si/servers 401`, 401, () => as("mock-token-nobody")("GET", "/si/servers")],
  [`${D} GET /si/servers 403`, 403, () => as(TOKEN.manage)("GET", "/si/servers")],
  [
    `${D} GET /si/servers default`,
    503,
    () => injected503(() => as(TOKEN.unrestricted)("GET", "/si/servers")),
  ],
  [`${D} POST /si/servers 201`, 201, () => as(TOKEN.unrestricted)("POST", "/si/servers", server)],
  [`${D} POST /si/servers 400`, 400, () => as(TOKEN.unrestricted)("POST", "/si/servers", { servers: [] })],
  [`${D} POST /si/servers 401`, 401, () => as("mock-token-nobody")("POST", "/si/servers", server)],
  [`${D} POST /si/servers 403`, 403, () => as(TOKEN.manage)("POST", "/si/servers", server)],
  [`${D} POST /si/servers 413`, 413, () => raw("POST", "/si/servers", TOKEN.unrestricted, OVERSIZED)],
  [
    `${D} POST /si/servers 415`,
    415,
    () => raw("POST", "/si/servers", TOKEN.unrestricted, "{}", "text/plain"),
  ],
  [
    `${D} POST /si/servers default`,
    503,
    () => injected503(() => as(TOKEN.unrestricted)("POST", "/si/servers", server)),
  ],
  [
    `${D} DELETE /si/servers/{guid} 204`,
    204,
    () => as(TOKEN.unrestricted)("DELETE", `/si/servers/${SERVER_1}`),
  ],
  [
    `${D} DELETE /si/servers/{guid} 401`,
    401,
    () => as("mock-token-nobody")("DELETE", `/si/servers/${SERVER_1}`),
  ],
  [`${D} DELETE /si/servers/{guid} 403`, 403, () => as(TOKEN.manage)("DELETE", `/si/servers/${SERVER_1}`)],
  [
    `${D} DELETE /si/servers/{guid} 404`,
    404,
    () => as(TOKEN.unrestricted)("DELETE", `/si/servers/${UNKNOWN_GUID}`),
  ],
  [
    `${D} DELETE /si/servers/{guid} default`,
    503,
    () => injected503(() => as(TOKEN.unrestricted)("DELETE", `/si/servers/${SERVER_1}`)),
  ],
  [`${D} GET /dashboard/api-tokens 200`, 200, () => as(TOKEN.manage)("GET", "/dashboard/api-tokens")],
  [
    `${D} GET /dashboard/api-tokens 400`,
    400,
    () => as(TOKEN.manage)("GET", "/dashboard/api-tokens?pageSize=101"),
  ],
  [`${D} GET /dashboard/api-tokens 401`, 401, () => as(TOKEN.expired)("GET", "/dashboard/api-tokens")],
  [`${D} GET /dashboard/api-tokens 403`, 403, () => as(TOKEN.mcp)("GET", "/dashboard/api-tokens")],
  [
    `${D} GET /dashboard/api-tokens default`,
    503,
    () => injected503(() => as(TOKEN.manage)("GET", "/dashboard/api-tokens")),
  ],
  [
    `${D} POST /dashboard/api-tokens 201`,
    201,
    () => as(TOKEN.unrestricted)("POST", "/dashboard/api-tokens", token),
  ],
  [
    `${D} POST /dashboard/api-tokens 400`,
    400,
    () => as(TOKEN.unrestricted)("POST", "/dashboard/api-tokens", { name: "no claims" }),
  ],
  [
    `${D} POST /dashboard/api-tokens 401`,
    401,
    () => as("mock-token-nobody")("POST", "/dashboard/api-tokens", token),
  ],
  [
    `${D} POST /dashboard/api-tokens 403`,
    403,
    () => as(TOKEN.manageReadonly)("POST", "/dashboard/api-tokens", token),
  ],
  [
    `${D} POST /dashboard/api-tokens 413`,
    413,
    () => raw("POST", "/dashboard/api-tokens", TOKEN.manage, OVERSIZED),
  ],
  [
    `${D} POST /dashboard/api-tokens 415`,
    415,
    () => raw("POST", "/dashboard/api-tokens", TOKEN.manage, "{}", "application/xml"),
  ],
  [
    `${D} POST /dashboard/api-tokens default`,
    503,
    () => injected503(() => as(TOKEN.unrestricted)("POST", "/dashboard/api-tokens", token)),
  ],
  [`${D} GET /dashboard/api-tokens/{id} 200`, 200, () => as(TOKEN.manage)("GET", "/dashboard/api-tokens/1")],
  [
    `${D} GET /dashboard/api-tokens/{id} 401`,
    401,
    () => as("mock-token-nobody")("GET", "/dashboard/api-tokens/1"),
  ],
  [`${D} GET /dashboard/api-tokens/{id} 403`, 403, () => as(TOKEN.mcp)("GET", "/dashboard/api-tokens/1")],
  [
    `${D} GET /dashboard/api-tokens/{id} 404`,
    404,
    () => as(TOKEN.manage)("GET", "/dashboard/api-tokens/999"),
  ],
  [
    `${D} GET /dashboard/api-tokens/{id} default`,
    503,
    () => injected503(() => as(TOKEN.manage)("GET", "/dashboard/api-tokens/1")),
  ],
  [
    `${D} DELETE /dashboard/api-tokens/{id} 204`,
    204,
    () => as(TOKEN.unrestricted)("DELETE", "/dashboard/api-tokens/6"),
  ],
  [
    `${D} DELETE /dashboard/api-tokens/{id} 401`,
    401,
    () => as("mock-token-nobody")("DELETE", "/dashboard/api-tokens/6"),
  ],
  [
    `${D} DELETE /dashboard/api-tokens/{id} 403`,
    403,
    () => as(TOKEN.manageReadonly)("DELETE", "/dashboard/api-tokens/6"),
  ],
  [
    `${D} DELETE /dashboard/api-tokens/{id} 404`,
    404,
    () => as(TOKEN.manage)("DELETE", "/dashboard/api-tokens/2"),
  ],
  [
    `${D} DELETE /dashboard/api-tokens/{id} default`,
    503,
    () => injected503(() => as(TOKEN.manage)("DELETE", "/dashboard/api-tokens/6")),
  ],
  [
    `${D} POST /accounts/invitations 202`,
    202,
    () => as(TOKEN.unrestricted)("POST", "/accounts/invitations", { emails: ["new@example.com"] }),
  ],
  [
    `${D} POST /accounts/invitations 400`,
    400,
    () => as(TOKEN.unrestricted)("POST", "/accounts/invitations", { emails: [] }),
  ],
  [
    `${D} POST /accounts/invitations 401`,
    401,
    () => as("mock-token-nobody")("POST", "/accounts/invitations", { emails: ["new@example.com"] }),
  ],
  [
    `${D} POST /accounts/invitations 403`,
    403,
    () => as(TOKEN.manage)("POST", "/accounts/invitations", { emails: ["new@example.com"] }),
  ],
  [
    `${D} POST /accounts/invitations 413`,
    413,
    () => raw("POST", "/accounts/invitations", TOKEN.unrestricted, OVERSIZED),
  ],
  [
    `${D} POST /accounts/invitations 415`,
    415,
    () =>
      raw(
        "POST",
        "/accounts/invitations",
        TOKEN.unrestricted,
        "emails=a",
        "application/x-www-form-urlencoded",
      ),
  ],
  [
    `${D} POST /accounts/invitations default`,
    503,
    () =>
      injected503(() =>
        as(TOKEN.unrestricted)("POST", "/accounts/invitations", { emails: ["new@example.com"] }),
      ),
  ],
  [
    `${D} GET /accounts/team-guid 200`,
    200,
    () => as(TOKEN.unrestricted)("GET", "/accounts/team-guid?email=owner%40example.com"),
  ],
  [`${D} GET /accounts/team-guid 400`, 400, () => as(TOKEN.unrestricted)("GET", "/accounts/team-guid")],
  [
    `${D} GET /accounts/team-guid 401`,
    401,
    () => as("mock-token-nobody")("GET", "/accounts/team-guid?email=owner%40example.com"),
  ],
  [
    `${D} GET /accounts/team-guid 403`,
    403,
    () => as(TOKEN.mcp)("GET", "/accounts/team-guid?email=owner%40example.com"),
  ],
  [
    `${D} GET /accounts/team-guid 404`,
    404,
    () => as(TOKEN.unrestricted)("GET", "/accounts/team-guid?email=nobody%40example.com"),
  ],
  [
    `${D} GET /accounts/team-guid default`,
    503,
    () => injected503(() => as(TOKEN.unrestricted)("GET", "/accounts/team-guid?email=owner%40example.com")),
  ],
  [
    `${R} 200`,
    200,
    async () => {
      await submitRebuild(call, { sourceUrl: "https://www.example.com/" });
      return submitRebuild(call, { sourceUrl: "https://www.example.com/" });
    },
  ],
  [`${R} 202`, 202, () => submitRebuild(call, { sourceUrl: "https://www.example.com/" })],
  [`${R} 400`, 400, () => submitRebuild(call, { sourceUrl: "http://localhost/" })],
  [
    `${R} 401`,
    401,
    () => submitRebuild(call, { sourceUrl: "https://www.example.com/" }, { apiKey: "wrong" }),
  ],
  [
    `${R} 403`,
    403,
    () =>
      submitRebuild(
        call,
        { sourceUrl: "https://www.example.com/" },
        { partnerId: PARTNER.disabled.id, apiKey: PARTNER.disabled.apiKey },
      ),
  ],
  [`${R} 413`, 413, () => rebuildRaw(OVERSIZED)],
  [`${R} 415`, 415, () => rebuildRaw("sourceUrl=https://www.example.com/", "text/plain")],
  [
    `${R} 422`,
    422,
    () =>
      submitRebuild(
        call,
        { sourceUrl: "https://www.example.com/" },
        { partnerId: PARTNER.noWebhooks.id, apiKey: PARTNER.noWebhooks.apiKey },
      ),
  ],
  [
    `${R} 429`,
    429,
    async () => {
      await control.putPartner(PARTNER.ok.id, { rateLimitPerHour: 1 });
      await submitRebuild(call, { sourceUrl: "https://www.example.com/" });
      return submitRebuild(call, { sourceUrl: "https://www.example.com/" });
    },
  ],
  [
    `${R} default`,
    503,
    () => injected503(() => submitRebuild(call, { sourceUrl: "https://www.example.com/" })),
  ],
];

/** Submits a rebuild and ends it as `completion` says (an empty body: success). */
async function complete(completion: Record<string, unknown>): Promise<void> {
  const { body } = await submitRebuild<{ requestId: string }>(call, {
    sourceUrl: "https://www.example.com/",
  });
  const done = await call({
    method: "POST",
    path: `/__mock/rebuilds/${body.requestId}/complete`,
    json: completion,
  });
  expect(done.status).toBe(200);
}

// Named after the callback's documented examples; `complete` ends a rebuild so that it sends each.
const callbacks: [example: string, completion: Record<string, unknown>][] = [
  ["success", {}],
  ["failed", { status: "failed" }],
  ["failedWithoutDetails", { status: "failed", errorCode: null, errorMessage: null }],
];

describe("every documented response of every operation, validated", () => {
  it("the table names each documented response exactly once", () => {
    expect(cases.map(([key]) => key).sort()).toEqual(documentedResponses().sort());
  });

  it.each(cases)("%s", async (key, status, send) => {
    expect((await send()).status).toBe(status);
    expect(covered()).toContain(key);
  });
});

describe("every documented callback shape, validated against the webhooks entry", () => {
  it("the table names each documented example", () => {
    expect(callbacks.map(([example]) => example).sort()).toEqual([...callbackExampleShapes().keys()].sort());
  });

  it.each(callbacks)("%s", async (example, completion) => {
    await complete(completion);
    expect(covered()).toContain(callbackExampleShapes().get(example));
  });
});

describe("every answer the standalone server's edge gives in front of the APIs, validated", () => {
  const node = useNodeMock();
  const port = () => Number(new URL(node.origin).port);
  const edgeCases: Array<[rule: keyof typeof EDGE_RESPONSES, status: number, send: () => Promise<number>]> = [
    [
      "preflight",
      204,
      async () =>
        (
          await socketExchange(
            port(),
            "OPTIONS /v1/si/servers HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://localhost:5173\r\n" +
              "Access-Control-Request-Method: POST\r\nConnection: close\r\n\r\n",
          )
        ).status,
    ],
    [
      "host",
      403,
      async () =>
        (
          await socketExchange(
            port(),
            "GET /v1/si/servers HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
          )
        ).status,
    ],
    [
      "origin",
      403,
      async () =>
        (
          await node.call({
            method: "POST",
            path: "/__mock/reset",
            headers: { origin: "https://evil.example" },
          })
        ).status,
    ],
    [
      "request-target",
      400,
      async () =>
        (
          await socketExchange(
            port(),
            "GET http://[ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
          )
        ).status,
    ],
  ];

  it("the table names each edge answer exactly once", () => {
    expect(edgeCases.map(([rule]) => EDGE_RESPONSES[rule]).sort()).toEqual(
      Object.values(EDGE_RESPONSES).sort(),
    );
  });

  it.each(edgeCases)("%s", async (rule, status, send) => {
    expect(await send()).toBe(status);
    expect(covered()).toContain(EDGE_RESPONSES[rule]);
  });
});
