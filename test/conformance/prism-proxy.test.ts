// Issue "contract conformance", item 3: an independent referee. `prism proxy --errors` for each
// contract stands in front of the standalone mock, and the SDK drives a full flow of both APIs
// through it, successes and documented failures alike. Prism checks every request and response
// against openapi/ itself; a violation shows as an `sl-violations` header, a Prism error answer or
// a line of its log. Expected: none.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClock, seededRandom } from "../../mocks/index.js";
import { type RunningMockServer, startMockServer } from "../../mocks/node.js";
import {
  AuthenticationError,
  DashboardClient,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RebuildClient,
  UnprocessableEntityError,
  ValidationError,
} from "../../src/index.js";
import { type PrismProxy, startPrismProxy } from "../support/prism-proxy.js";

let mock: RunningMockServer;
let dashboardProxy: PrismProxy;
let rebuildProxy: PrismProxy;
/** An upstream that breaks the contract, behind its own Prism: proof that the referee sees. */
let liar: Server;
let liarProxy: PrismProxy;
/** Every answer that came back through Prism: status, and its violations header if any. */
const answers: { label: string; status: number; type: string; violations: string | null }[] = [];

beforeAll(async () => {
  mock = await startMockServer({
    port: 0,
    clock: createClock({ frozenAt: Date.parse("2026-03-01T12:00:00+00:00") }),
    random: seededRandom(3),
  });
  liar = createServer((_, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ totalCount: "three", data: [] }));
  }).listen(0, "127.0.0.1");
  await once(liar, "listening");
  const liarUrl = `http://127.0.0.1:${(liar.address() as AddressInfo).port}/v1`;
  [dashboardProxy, rebuildProxy, liarProxy] = await Promise.all([
    startPrismProxy("dashboard", mock.dashboardBaseUrl),
    startPrismProxy("rebuild", mock.rebuildBaseUrl),
    startPrismProxy("dashboard", liarUrl),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([dashboardProxy?.stop(), rebuildProxy?.stop(), liarProxy?.stop()]);
  liar?.close();
  await mock?.close();
});

async function throughPrism(request: Request): Promise<Response> {
  const response = await fetch(request);
  answers.push({
    label: `${request.method} ${new URL(request.url).pathname}`,
    status: response.status,
    type: response.headers.get("content-type") ?? "",
    violations: response.headers.get("sl-violations"),
  });
  return response;
}

const dashboard = (token: string) =>
  new DashboardClient({ baseUrl: dashboardProxy.url, token, fetch: throughPrism, maxRetries: 0 });
const rebuild = (partnerId: number, apiKey = `mock-rebuild-key-${partnerId}`) =>
  new RebuildClient({ baseUrl: rebuildProxy.url, partnerId, apiKey, fetch: throughPrism, maxRetries: 0 });

/** The control API is not part of the contract: called on the mock directly, not through Prism. */
async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${mock.origin}/__mock${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  expect(response.ok).toBe(true);
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

async function rejection(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

describe("prism proxy --errors in front of the standalone mock", () => {
  it("sees a response that breaks the contract (a string totalCount from another upstream)", async () => {
    const answer = await fetch(`${liarProxy.url}/si/servers`, { headers: { authorization: "Bearer any" } });
    await answer.body?.cancel();
    expect(answer.status).toBe(500);
    expect(answer.headers.get("sl-violations")).toContain("totalCount must be integer");
  });

  it("the dashboard API: servers, tokens and accounts, successes and documented failures", async () => {
    const owner = dashboard("mock-token-unrestricted");
    const { totalCount } = await owner.servers.list({ page: 1, pageSize: 2 });
    const all = [];
    for await (const server of owner.servers.listAll({ pageSize: 2 })) all.push(server);
    expect(all).toHaveLength(totalCount);
    const [connected] = await owner.servers.connect([
      { address: "https://panel9.example.com:8443", product: "plesk" },
    ]);
    await owner.servers.delete(connected?.guid ?? "");
    expect(await rejection(owner.servers.delete(connected?.guid ?? ""))).toBeInstanceOf(NotFoundError);

    const created = await owner.apiTokens.create({
      name: "  referee  ",
      claims: [{ name: "mcp", readonly: true, attributes: { serverGuid: all[0]?.guid ?? "" } }],
    });
    expect((await owner.apiTokens.get(created.id)).name).toBe("referee");
    expect((await owner.apiTokens.list({ filter: "REFEREE" })).totalCount).toBe(1);
    await owner.apiTokens.delete(created.id);
    expect(await rejection(owner.apiTokens.get(created.id))).toBeInstanceOf(NotFoundError);
    // Valid by the schema, refused by the rules the schema cannot express: 400, then 403.
    const twice = [{ name: "manage-api-tokens" as const }, { name: "manage-api-tokens" as const }];
    expect(await rejection(owner.apiTokens.create({ name: "twice", claims: twice }))).toBeInstanceOf(
      ValidationError,
    );
    const manager = dashboard("mock-token-manage");
    expect(await rejection(manager.apiTokens.create({ name: "wide", claims: [] }))).toBeInstanceOf(
      PermissionDeniedError,
    );
    expect(await rejection(manager.servers.list())).toBeInstanceOf(PermissionDeniedError);
    expect(await rejection(dashboard("mock-token-expired").servers.list())).toBeInstanceOf(
      AuthenticationError,
    );

    expect(await owner.accounts.sendInvitations(["new.colleague@example.com"])).toEqual([
      { email: "new.colleague@example.com", status: "sent" },
    ]);
    expect(await owner.accounts.getTeamGuid("NEW.colleague@example.com")).toBe(
      await owner.accounts.getTeamGuid("owner@example.com"),
    );
    expect(await rejection(owner.accounts.getTeamGuid("nobody@example.com"))).toBeInstanceOf(NotFoundError);
  });

  it("the rebuild API: submission, idempotent repeats, completion, and every documented refusal", async () => {
    const partner = rebuild(1001);
    const first = await partner.submit({ sourceUrl: "https://www.example.com/", prompt: "Make it blue" });
    expect(first).toMatchObject({ created: true, status: "running" });
    expect(await partner.submit({ sourceUrl: "https://WWW.example.com" })).toMatchObject({
      created: false,
      requestId: first.requestId,
    });
    await control("POST", "/clock/advance", { seconds: 5 });
    expect(await partner.submit({ sourceUrl: "https://www.example.com/" })).toMatchObject({
      status: "success",
      previewUrl: expect.any(String),
    });
    const failing = await partner.submit({ sourceUrl: "https://shop.example.org/" });
    await control("POST", `/rebuilds/${failing.requestId}/complete`, { status: "failed" });
    expect(await partner.submit({ sourceUrl: "https://shop.example.org/" })).toMatchObject({
      status: "failed",
    });

    expect(await rejection(partner.submit({ sourceUrl: "http://10.0.0.1/" }))).toBeInstanceOf(
      ValidationError,
    );
    expect(
      await rejection(rebuild(1001, "wrong-key").submit({ sourceUrl: "https://a.example.com/" })),
    ).toBeInstanceOf(AuthenticationError);
    expect(await rejection(rebuild(1002).submit({ sourceUrl: "https://a.example.com/" }))).toBeInstanceOf(
      PermissionDeniedError,
    );
    expect(await rejection(rebuild(1003).submit({ sourceUrl: "https://a.example.com/" }))).toBeInstanceOf(
      UnprocessableEntityError,
    );
    await control("PUT", "/partners/1001", { rateLimitPerHour: 1 });
    expect(await rejection(partner.submit({ sourceUrl: "https://b.example.com/" }))).toBeInstanceOf(
      RateLimitError,
    );
  });

  it("Prism found no violation in either direction", () => {
    const statuses = new Set(answers.map(({ status }) => status));
    // The flow reached success and failure answers of both APIs through Prism.
    for (const status of [200, 201, 202, 204, 400, 401, 403, 404, 422, 429])
      expect(statuses).toContain(status);
    expect(answers.filter(({ violations }) => violations !== null)).toEqual([]);
    const log = `${dashboardProxy.output()}\n${rebuildProxy.output()}`;
    expect(log.split("\n").filter((line) => /violation|Request terminated|error/i.test(line))).toEqual([]);
    // Every answer came from the mock: Prism's own error answers are application/problem+json.
    expect(answers.filter(({ type }) => type.startsWith("application/problem+json"))).toEqual([]);
  });
});
