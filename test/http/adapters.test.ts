// Both adapters behave identically: one table of request sequences runs against the MSW handlers and
// against the standalone node:http server (`startMockServer({ port: 0 })`), each on a frozen clock
// with the same seeded randomness, and the two transcripts (status, the headers that carry meaning,
// body) must be equal as well as match what the table expects.
import { describe, expect, it } from "vitest";
import { PARTNER, SERVER_1, TOKEN } from "../support/default-seed.js";
import {
  type Answer,
  bearer,
  type Call,
  type Client,
  REBUILDS_PATH,
  rebuildHeaders,
} from "./support/client.js";
import { useMswMock, useNodeMock } from "./support/harness.js";

// The node server's requests pass through MSW untouched.
const msw = useMswMock({ onUnhandledRequest: "bypass" });
const node = useNodeMock();

interface Step {
  call: Call;
  status: number;
  /** Checked with toMatchObject; `{origin}` stands for the adapter's origin. */
  body?: unknown;
}

const owner = bearer(TOKEN.unrestricted);
const json = { "content-type": "application/json" };
const submit = (sourceUrl: string, auth = {}): Call => ({
  method: "POST",
  path: REBUILDS_PATH,
  headers: rebuildHeaders(auth),
  json: { sourceUrl },
});

const SCENARIOS: Record<string, Step[]> = {
  "dashboard reads and pagination": [
    { call: { path: "/v1/si/servers", headers: owner }, status: 200, body: { totalCount: 3 } },
    { call: { path: "/v1/si/servers?page=2&pageSize=2", headers: owner }, status: 200, body: { data: [{}] } },
    { call: { path: "/v1/si/servers?page=9", headers: owner }, status: 200, body: { data: [] } },
    {
      call: { path: "/v1/dashboard/api-tokens?filter=MANAGER", headers: owner },
      status: 200,
      body: { totalCount: 4 },
    },
    { call: { path: "/v1/accounts/team-guid?email=OWNER@example.com", headers: owner }, status: 200 },
  ],
  "token lifecycle": [
    {
      call: { path: "/v1/dashboard/api-tokens", headers: owner, json: { name: " ci ", claims: [] } },
      status: 201,
      body: { data: { id: 10, name: "ci" } },
    },
    { call: { path: "/v1/dashboard/api-tokens/10", headers: owner }, status: 200 },
    { call: { method: "DELETE", path: "/v1/dashboard/api-tokens/10", headers: owner }, status: 204 },
    { call: { path: "/v1/dashboard/api-tokens/10", headers: owner }, status: 404 },
  ],
  "servers connect and delete": [
    {
      call: {
        path: "/v1/si/servers",
        headers: owner,
        json: { servers: [{ address: "https://n.example.com", product: "plesk" }] },
      },
      status: 201,
    },
    {
      call: { method: "DELETE", path: `/v1/si/servers/${SERVER_1.toUpperCase()}`, headers: owner },
      status: 204,
    },
    { call: { method: "DELETE", path: `/v1/si/servers/${SERVER_1}`, headers: owner }, status: 404 },
    { call: { method: "DELETE", path: "/v1/si/servers/nope", headers: owner }, status: 404 },
  ],
  "check order and body handling": [
    { call: { path: "/v1/nope" }, status: 404, body: { error: { code: "NOT_FOUND" } } },
    { call: { method: "PATCH", path: "/v1/si/servers" }, status: 405 },
    { call: { path: "/v1/si/servers" }, status: 401 },
    { call: { path: "/v1/si/servers", headers: bearer(TOKEN.expired) }, status: 401 },
    { call: { path: "/v1/si/servers", headers: bearer(TOKEN.manage) }, status: 403 },
    {
      call: { path: "/v1/si/servers", headers: { ...owner, ...json }, body: "x".repeat(1024 * 1024 + 1) },
      status: 413,
    },
    {
      call: { path: "/v1/si/servers", headers: { ...owner, "content-type": "text/plain" }, body: "{}" },
      status: 415,
    },
    {
      call: { path: "/v1/si/servers", headers: { ...owner, ...json }, body: "{" },
      status: 400,
      body: { errors: [{ path: "" }] },
    },
    {
      call: {
        path: "/v1/si/servers",
        headers: { ...owner, ...json },
        body: new Uint8Array([0x7b, 0xff, 0x7d]),
      },
      status: 400,
    },
    {
      call: { path: "/v1/si/servers", headers: { ...owner, "content-type": "text/plain" }, body: "" },
      status: 400,
      body: { errors: [{ type: "required", path: "" }] },
    },
    {
      call: { path: "/v1/si/servers?page=1&page=1", headers: owner },
      status: 400,
      body: { errors: [{ path: "page" }] },
    },
    {
      call: {
        path: "/v1/dashboard/api-tokens",
        headers: bearer(TOKEN.manage),
        json: { name: "x", claims: [] },
      },
      status: 403,
    },
    {
      call: { method: "DELETE", path: "/v1/dashboard/api-tokens/01", headers: owner, body: "ignored" },
      status: 404,
    },
  ],
  "rebuild submissions": [
    { call: submit("https://Example.com"), status: 202, body: { status: "running" } },
    { call: submit("https://example.com/#top"), status: 200, body: { status: "running" } },
    { call: submit("http://10.0.0.1/"), status: 400, body: { errors: [{ path: "sourceUrl" }] } },
    { call: { method: "GET", path: REBUILDS_PATH }, status: 405 },
    { call: submit("https://example.com", { apiKey: PARTNER.ok.webhookApiKey }), status: 401 },
    { call: submit("https://example.com", { partnerId: "01001" }), status: 401 },
    {
      call: submit("https://example.com", {
        partnerId: PARTNER.disabled.id,
        apiKey: PARTNER.disabled.apiKey,
      }),
      status: 403,
    },
    {
      call: submit("https://example.com", {
        partnerId: PARTNER.noWebhooks.id,
        apiKey: PARTNER.noWebhooks.apiKey,
      }),
      status: 422,
    },
  ],
  "rate limit": [
    { call: { method: "PUT", path: "/__mock/partners/1001", json: { rateLimitPerHour: 1 } }, status: 200 },
    { call: submit("https://a.example.com"), status: 202 },
    { call: submit("https://b.example.com"), status: 429, body: { error: { code: "RATE_LIMIT_EXCEEDED" } } },
    { call: { path: "/__mock/clock/advance", json: { seconds: 3600 } }, status: 200 },
    { call: submit("https://b.example.com"), status: 202 },
  ],
  "completion, callback and control API": [
    { call: submit("https://www.example.com/"), status: 202 },
    {
      call: { path: "/__mock/clock/advance", json: { seconds: 5 } },
      status: 200,
      body: { now: "2026-03-01T12:00:05+00:00" },
    },
    {
      call: { path: "/__mock/webhook-sink/1001" },
      status: 200,
      body: { data: [{ body: { status: "success" } }] },
    },
    {
      call: { path: "/__mock/deliveries" },
      status: 200,
      body: { data: [{ url: "{origin}/__mock/webhook-sink/1001", responseStatus: 200 }] },
    },
    { call: submit("https://www.example.com/"), status: 200, body: { status: "success" } },
    { call: submit("https://stall.example.com/"), status: 202 },
    {
      call: { method: "PUT", path: "/__mock/partners/2001" },
      status: 200,
      body: { webhookUrl: "{origin}/__mock/webhook-sink/2001" },
    },
    { call: { method: "POST", path: "/__mock/partners/1001/rotate-key" }, status: 200 },
    { call: submit("https://www.example.com/"), status: 401 },
    { call: { method: "PUT", path: "/__mock/faults", json: { errorRate: 1 } }, status: 200 },
    { call: { path: "/v1/si/servers", headers: owner }, status: 503 },
    { call: { path: "/__mock/state" }, status: 200 },
    { call: { method: "POST", path: "/__mock/reset" }, status: 204 },
    { call: { path: "/v1/si/servers", headers: owner }, status: 200 },
  ],
};

/** The headers whose values the contract gives meaning to. */
const MEANINGFUL_HEADERS = [
  "content-type",
  "allow",
  "retry-after",
  "ratelimit-limit",
  "ratelimit-remaining",
  "ratelimit-reset",
];

function transcriptEntry(answer: Answer, origin: string) {
  const headers = Object.fromEntries(
    MEANINGFUL_HEADERS.flatMap((name) => {
      const value = answer.headers.get(name);
      return value === null ? [] : [[name, value.replace(/\s+/g, "")]];
    }),
  );
  const body =
    answer.body === undefined
      ? undefined
      : JSON.parse(JSON.stringify(answer.body).replaceAll(origin, "{origin}"));
  return { status: answer.status, headers, body };
}

async function run(client: Client, origin: string, steps: Step[]) {
  const transcript = [];
  for (const step of steps) transcript.push(transcriptEntry(await client(step.call), origin));
  return transcript;
}

describe("the MSW handlers and the node:http server answer alike", () => {
  it.each(Object.entries(SCENARIOS))("%s", async (_, steps) => {
    const viaMsw = await run(msw.call, msw.origin, steps);
    const viaNode = await run(node.call, node.origin, steps);
    steps.forEach((step, index) => {
      const entry = viaMsw[index];
      expect(entry?.status, `step ${index}: ${JSON.stringify(step.call.path)}`).toBe(step.status);
      if (step.body !== undefined) expect(entry?.body).toMatchObject(step.body as object);
    });
    expect(viaNode).toEqual(viaMsw);
  });
});
