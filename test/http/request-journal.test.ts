// The request journal (`GET /__mock/requests`, `world.listRequests()`, decisions/030): the most recent
// requests to the public APIs, bounded, filtered, redacted, cleared by reset, fed by the dispatcher
// alone and so the same under MSW and the node server.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { MockControlSchemas } from "../../mocks/control/operations.js";
import { DomainError } from "../../mocks/domain/errors.js";
import { REQUEST_JOURNAL_CAPACITY } from "../../mocks/domain/request-journal.js";
import { createMockDispatcher } from "../../mocks/http/mock-dispatcher.js";
import { FROZEN_AT, PARTNER, TOKEN } from "../support/default-seed.js";
import { socketExchange } from "../support/raw-http.js";
import { bearer, REBUILDS_PATH, rebuildHeaders } from "./support/client.js";
import { expectFieldErrors } from "./support/expectations.js";
import { type MockHarness, useMswMock, useNodeMock } from "./support/harness.js";

type Journal = MockControlSchemas["RequestJournal"];
type Entry = MockControlSchemas["JournalEntry"];

// The node server's requests pass through MSW untouched.
const msw = useMswMock({ onUnhandledRequest: "bypass" });
const node = useNodeMock();

const AT = new Date(FROZEN_AT).toISOString();

async function journal(mock: MockHarness, query = ""): Promise<Journal> {
  const answer = await mock.call<Journal>({ path: `/__mock/requests${query}` });
  expect(answer.status).toBe(200);
  return answer.body;
}

/** A mixed sequence: successes, every failure before and after authentication, both APIs. */
async function sequence({ call, origin }: Pick<MockHarness, "call" | "origin">): Promise<void> {
  const owner = bearer(TOKEN.unrestricted);
  await call({ path: "/v1/si/servers?page=1&pageSize=2", headers: owner });
  await call({ path: "/v1/si/servers" }); // no credentials: 401
  await call({ path: "/v1/si/servers", headers: bearer("not-a-token") }); // 401
  await call({ path: "/v1/dashboard/api-tokens", headers: bearer(TOKEN.mcp) }); // authenticated, 403
  await call({ path: "/v1/dashboard/api-tokens/999", headers: owner }); // 404 of the operation
  await call({ path: "/v1/no/such/path", headers: owner }); // 404: no operation
  await call({ method: "PATCH", path: "/v1/si/servers", headers: owner }); // 405: no operation
  // Fetched directly: the test client checks bodies, and a HEAD answer has none.
  await fetch(`${origin}/v1/si/servers`, { method: "HEAD", headers: owner });
  await call({
    method: "POST",
    path: "/v1/dashboard/api-tokens",
    headers: owner,
    json: { name: "ci", claims: [] },
  });
  await call({ method: "POST", path: REBUILDS_PATH, headers: rebuildHeaders(), json: { sourceUrl: "nope" } });
  await call({
    method: "POST",
    path: REBUILDS_PATH,
    headers: rebuildHeaders(),
    json: { sourceUrl: "https://www.example.com/" },
  });
  await call({
    method: "POST",
    path: REBUILDS_PATH,
    headers: rebuildHeaders({ apiKey: "wrong" }),
    json: { sourceUrl: "https://www.example.com/" },
  });
  await call({
    method: "POST",
    path: REBUILDS_PATH,
    headers: rebuildHeaders({ partnerId: PARTNER.disabled.id, apiKey: PARTNER.disabled.apiKey }),
    json: { sourceUrl: "https://www.example.com/" },
  });
}

// Bodies have tests of their own (below).
const withoutDurations = (entries: readonly Entry[]) =>
  entries.map(({ durationMs: _, body: _body, bodyCut: _cut, ...rest }) => rest);

describe("the operations the journal names", () => {
  it("are exactly the service contracts' operations (mock-control.yaml's PublicOperationId)", () => {
    type Document = {
      paths: Record<string, Record<string, { operationId?: string }>>;
      components: { schemas: Record<string, { enum?: string[] }> };
    };
    const read = (name: string) => parse(readFileSync(`openapi/${name}.yaml`, "utf8")) as Document;
    const operationIds = (document: Document) =>
      Object.values(document.paths).flatMap((item) =>
        Object.values(item).flatMap((operation) => (operation.operationId ? [operation.operationId] : [])),
      );
    const declared = read("mock-control").components.schemas.PublicOperationId?.enum ?? [];
    expect([...declared].sort()).toEqual(
      [...operationIds(read("dashboard")), ...operationIds(read("rebuild"))].sort(),
    );
  });
});

describe("what the journal records", () => {
  it("each request to a public API, newest last: time, API, method, path, operation, status, duration, caller", async () => {
    await sequence(msw);
    const { capacity, dropped, entries } = await journal(msw);
    expect({ capacity, dropped }).toEqual({ capacity: REQUEST_JOURNAL_CAPACITY, dropped: 0 });
    expect(capacity).toBe(500);
    const at = AT;
    const dashboard = { at, api: "dashboard" } as const;
    const rebuild = { at, api: "rebuild", method: "POST", path: REBUILDS_PATH, operationId: "submitRebuild" };
    expect(withoutDurations(entries)).toEqual([
      {
        ...dashboard,
        method: "GET",
        path: "/v1/si/servers",
        operationId: "listServers",
        status: 200,
        caller: { tokenId: 1 },
      },
      {
        ...dashboard,
        method: "GET",
        path: "/v1/si/servers",
        operationId: "listServers",
        status: 401,
        caller: null,
      },
      {
        ...dashboard,
        method: "GET",
        path: "/v1/si/servers",
        operationId: "listServers",
        status: 401,
        caller: null,
      },
      {
        ...dashboard,
        method: "GET",
        path: "/v1/dashboard/api-tokens",
        operationId: "listApiTokens",
        status: 403,
        caller: { tokenId: 5 },
      },
      {
        ...dashboard,
        method: "GET",
        path: "/v1/dashboard/api-tokens/999",
        operationId: "getApiToken",
        status: 404,
        caller: { tokenId: 1 },
      },
      { ...dashboard, method: "GET", path: "/v1/no/such/path", operationId: null, status: 404, caller: null },
      { ...dashboard, method: "PATCH", path: "/v1/si/servers", operationId: null, status: 405, caller: null },
      {
        ...dashboard,
        method: "HEAD",
        path: "/v1/si/servers",
        operationId: "listServers",
        status: 200,
        caller: { tokenId: 1 },
      },
      {
        ...dashboard,
        method: "POST",
        path: "/v1/dashboard/api-tokens",
        operationId: "createApiToken",
        status: 201,
        caller: { tokenId: 1 },
      },
      { ...rebuild, status: 400, caller: { partnerId: 1001 } },
      { ...rebuild, status: 202, caller: { partnerId: 1001 } },
      { ...rebuild, status: 401, caller: null },
      { ...rebuild, status: 403, caller: { partnerId: 1002 } },
    ]);
    for (const { durationMs } of entries) {
      expect(typeof durationMs).toBe("number");
      expect(durationMs).toBeGreaterThanOrEqual(0);
    }
  });

  it("not the control API's own requests", async () => {
    await msw.control.state();
    await msw.control.advance(1);
    await msw.call({ path: "/__mock/no-such-route" });
    expect((await journal(msw)).entries).toEqual([]);
  });

  it("the time is the virtual clock's when the request came, to the millisecond", async () => {
    await msw.control.advance(1.5);
    await msw.call({ path: "/v1/si/servers", headers: bearer(TOKEN.unrestricted) });
    const [entry] = (await journal(msw)).entries;
    expect(entry?.at).toBe(new Date(FROZEN_AT + 1500).toISOString());
  });

  it("an injected 503 is recorded with its operation; a dropped connection with the status it would have had", async () => {
    msw.world.setFaults({ errorRate: 1 });
    await msw.call({ path: "/v1/si/servers", headers: bearer(TOKEN.unrestricted) });
    msw.world.setFaults({ errorRate: 0, resetRate: 1 });
    await expect(msw.call({ path: "/v1/si/servers", headers: bearer(TOKEN.unrestricted) })).rejects.toThrow();
    expect(withoutDurations((await journal(msw)).entries)).toEqual([
      {
        at: AT,
        api: "dashboard",
        method: "GET",
        path: "/v1/si/servers",
        operationId: "listServers",
        status: 503,
        caller: null,
      },
      {
        at: AT,
        api: "dashboard",
        method: "GET",
        path: "/v1/si/servers",
        operationId: "listServers",
        status: 200,
        caller: { tokenId: 1 },
      },
    ]);
  });
});

describe("nothing secret, no query string", () => {
  it("the answer holds no credential or query value the requests carried", async () => {
    const email = "alice.secret@example.com";
    await msw.call({
      path: `/v1/accounts/team-guid?email=${encodeURIComponent(email)}`,
      headers: bearer(TOKEN.unrestricted),
    });
    await msw.call({
      path: `/v1/dashboard/api-tokens?filter=${encodeURIComponent("filter-secret")}`,
      headers: bearer(TOKEN.manage),
    });
    const created = await msw.call<{ data: { token: string } }>({
      method: "POST",
      path: "/v1/dashboard/api-tokens",
      headers: bearer(TOKEN.unrestricted),
      json: { name: "body-secret-name", claims: [] },
    });
    await msw.call({ path: "/v1/si/servers", headers: bearer(created.body.data.token) });
    await msw.call({
      method: "POST",
      path: `${REBUILDS_PATH}?key=${PARTNER.ok.apiKey}`,
      headers: rebuildHeaders(),
      json: { sourceUrl: "https://www.example.com/prompt-secret", prompt: "prompt-secret" },
    });
    await msw.call({ path: "/v1/si/servers", headers: { authorization: "Basic dXNlcjpwYXNz" } });

    const text = JSON.stringify(await journal(msw));
    for (const secret of [
      email,
      encodeURIComponent(email),
      "filter-secret",
      created.body.data.token,
      TOKEN.unrestricted,
      TOKEN.manage,
      PARTNER.ok.apiKey,
      "dXNlcjpwYXNz",
      "?",
    ]) {
      expect(text).not.toContain(secret);
    }
    expect((await journal(msw)).entries.map((e) => e.caller)).toEqual([
      { tokenId: 1 },
      { tokenId: 3 },
      { tokenId: 1 },
      { tokenId: 10 },
      { partnerId: 1001 },
      null,
    ]);
  });

  it("a very long path is cut at 2,048 characters; a long method at 32", async () => {
    const long = `/v1/${"x".repeat(5000)}`;
    await msw.call({ path: long, headers: bearer(TOKEN.unrestricted) });
    // A method no HTTP parser knows: node's (the server, msw 3's interceptor) refuses it before any
    // adapter sees it, so it is handed to the dispatcher as fetch-level MSW or a worker would.
    await createMockDispatcher(msw.world)({
      method: "PROPFINDEVERYTHINGEVERYWHEREATONCEPLEASE",
      url: new URL(`${msw.origin}/v1/si/servers`),
      headers: new Headers(),
      body: null,
    });
    const [first, second] = (await journal(msw)).entries;
    expect(first?.path).toHaveLength(2048);
    expect(first?.path.endsWith("…")).toBe(true);
    expect(first?.path.startsWith("/v1/xxx")).toBe(true);
    expect(second?.method).toBe("PROPFINDEVERYTHINGEVERYWHEREATON");
    expect(second?.status).toBe(405);
  });
});

describe("bounded", () => {
  it(`keeps the ${REQUEST_JOURNAL_CAPACITY} most recent, drops the oldest first and counts them`, async () => {
    const total = REQUEST_JOURNAL_CAPACITY + 7;
    for (let id = 1; id <= total; id++) {
      await msw.call({ path: `/v1/dashboard/api-tokens/${id}`, headers: bearer(TOKEN.unrestricted) });
    }
    const { capacity, dropped, entries } = await journal(msw);
    expect({ capacity, dropped, kept: entries.length }).toEqual({
      capacity: REQUEST_JOURNAL_CAPACITY,
      dropped: 7,
      kept: REQUEST_JOURNAL_CAPACITY,
    });
    expect(entries[0]?.path).toBe("/v1/dashboard/api-tokens/8");
    expect(entries.at(-1)?.path).toBe(`/v1/dashboard/api-tokens/${total}`);
    // A filter keeps the journal's own figures.
    const notFound = await journal(msw, "?status=404");
    expect(notFound.dropped).toBe(7);
    expect(notFound.capacity).toBe(REQUEST_JOURNAL_CAPACITY);
  });
});

describe("filters", () => {
  it("by operation and by status, together or alone", async () => {
    await sequence(msw);
    const byOperation = await journal(msw, "?operation=submitRebuild");
    expect(byOperation.entries.map((e) => e.status)).toEqual([400, 202, 401, 403]);
    const byStatus = await journal(msw, "?status=401");
    expect(byStatus.entries.map((e) => [e.operationId, e.api])).toEqual([
      ["listServers", "dashboard"],
      ["listServers", "dashboard"],
      ["submitRebuild", "rebuild"],
    ]);
    const both = await journal(msw, "?operation=listServers&status=200");
    expect(both.entries.map((e) => e.method)).toEqual(["GET", "HEAD"]);
    expect((await journal(msw, "?operation=deleteServer")).entries).toEqual([]);
    // In-process, the same filters and the same answer.
    expect(msw.world.listRequests({ operation: "submitRebuild" }).entries).toEqual(byOperation.entries);
    expect(msw.world.listRequests({ status: 401 })).toEqual(byStatus);
  });

  it.each([
    ["an unknown operation", "?operation=listEverything", [{ type: "invalid_value", path: "operation" }]],
    ["a control operation", "?operation=resetMock", [{ type: "invalid_value", path: "operation" }]],
    ["a status that is not a number", "?status=ok", [{ type: "invalid_type", path: "status" }]],
    ["a status below 100", "?status=99", [{ type: "too_small", path: "status" }]],
    ["a status above 599", "?status=600", [{ type: "too_big", path: "status" }]],
    ["a status given twice", "?status=200&status=404", [{ type: "duplicate", path: "status" }]],
    [
      "both wrong",
      "?operation=&status=2.5",
      [
        { type: "too_small", path: "operation" },
        { type: "invalid_type", path: "status" },
      ],
    ],
  ])("%s is a 400 naming the parameter", async (_, query, errors) => {
    expectFieldErrors(await msw.call({ path: `/__mock/requests${query}` }), errors);
  });

  it("in-process, a bad filter is a VALIDATION_FAILED DomainError with the same field errors", () => {
    const attempt = () =>
      // @ts-expect-error not an operation of the service contracts
      msw.world.listRequests({ operation: "resetMock", status: 99 });
    expect(attempt).toThrow(DomainError);
    try {
      attempt();
    } catch (error) {
      expect((error as DomainError).code).toBe("VALIDATION_FAILED");
      expect((error as DomainError).details.fieldErrors?.map(({ type, path }) => ({ type, path }))).toEqual([
        { type: "invalid_value", path: "operation" },
        { type: "too_small", path: "status" },
      ]);
    }
  });
});

describe("cleared by reset, not part of snapshots", () => {
  it("reset empties it and its count of dropped entries", async () => {
    await sequence(msw);
    expect((await journal(msw)).entries.length).toBeGreaterThan(0);
    await msw.control.reset();
    expect(await journal(msw)).toEqual({ capacity: REQUEST_JOURNAL_CAPACITY, dropped: 0, entries: [] });
  });

  it("a snapshot does not carry it, and restoring one starts it afresh", async () => {
    await sequence(msw);
    const snapshot = msw.world.snapshot();
    expect(JSON.stringify(snapshot)).not.toContain("/v1/si/servers");
    const other = await msw.call({ method: "PUT", path: "/__mock/snapshot", json: snapshot });
    expect(other.status).toBe(204);
    expect((await journal(msw)).entries).toEqual([]);
    await msw.call({ path: "/v1/si/servers", headers: bearer(TOKEN.unrestricted) });
    expect((await journal(msw)).entries).toHaveLength(1);
  });
});

describe("the same under MSW and the node server", () => {
  it("the same requests give the same entries, durations aside", async () => {
    await sequence(msw);
    await sequence(node);
    const [fromMsw, fromNode] = [await journal(msw), await journal(node)];
    expect(fromNode.entries).toHaveLength(13);
    expect(withoutDurations(fromNode.entries)).toEqual(withoutDurations(fromMsw.entries));
    expect({ ...fromNode, entries: [] }).toEqual({ ...fromMsw, entries: [] });
    expect(node.world.listRequests()).toEqual(fromNode);
  });

  it("the node server's refusals in front of the APIs are not journalled", async () => {
    const { port } = new URL(node.origin);
    // A Host that is not allowed (403) and a preflight (204), both answered by the edge.
    const refused = await socketExchange(
      Number(port),
      "GET /v1/si/servers HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
    );
    expect(refused.status).toBe(403);
    const preflight = await fetch(`${node.origin}/v1/si/servers`, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:5173", "access-control-request-method": "GET" },
    });
    expect(preflight.status).toBe(204);
    // Outside both APIs: the server's own 404.
    expect((await node.call({ path: "/api/elsewhere" })).status).toBe(404);
    expect((await journal(node)).entries).toEqual([]);
  });
});

describe("bodies (decisions/044)", () => {
  const submitAs = (mock: MockHarness, json: unknown) =>
    mock.call({ method: "POST", path: REBUILDS_PATH, headers: rebuildHeaders(), json });

  it.each([
    ["MSW", msw],
    ["the node server", node],
  ])(
    "under %s, each entry keeps the body as JSON and never the key that came in a header",
    async (_, mock) => {
      await submitAs(mock, { sourceUrl: "https://www.example.com/", prompt: "Make it blue" });
      await mock.call({ path: "/v1/si/servers", headers: bearer(TOKEN.unrestricted) });
      const { entries } = await journal(mock);
      expect(entries.map(({ body, bodyCut }) => ({ body, bodyCut }))).toEqual([
        { body: { sourceUrl: "https://www.example.com/", prompt: "Make it blue" }, bodyCut: false },
        { body: null, bodyCut: false },
      ]);
      expect(JSON.stringify(entries)).not.toContain(PARTNER.ok.apiKey);
    },
  );

  it("redacts secrets a body carries: keys that name one, and a URL's password", async () => {
    await submitAs(msw, {
      sourceUrl: "https://user:hunter2@www.example.com/",
      prompt: "p",
      apiKey: "k-1",
      nested: [{ client_secret: "s-1", Password: "p-1", note: "kept" }],
    });
    const [entry] = (await journal(msw)).entries;
    expect(entry?.status).toBe(400);
    expect(entry?.body).toEqual({
      sourceUrl: "https://user:[redacted]@www.example.com/",
      prompt: "p",
      apiKey: "[redacted]",
      nested: [{ client_secret: "[redacted]", Password: "[redacted]", note: "kept" }],
    });
  });

  it("a body that is not JSON is null; one longer than the bound is its JSON text, cut and marked", async () => {
    await msw.call({
      method: "POST",
      path: REBUILDS_PATH,
      headers: { ...rebuildHeaders(), "content-type": "application/json" },
      body: "{not json",
    });
    await submitAs(msw, { sourceUrl: "https://www.example.com/", prompt: "x".repeat(20_000) });
    const [notJson, long] = (await journal(msw)).entries;
    expect(notJson).toMatchObject({ body: null, bodyCut: false });
    expect(long?.bodyCut).toBe(true);
    const text = String(long?.body);
    expect(typeof long?.body).toBe("string");
    expect(text.length).toBe(16_384);
    expect(text.endsWith("…")).toBe(true);
  });

  it("filters by a subset of the body (deep partial match), over HTTP and in-process", async () => {
    await submitAs(msw, { sourceUrl: "https://a.example.com/", prompt: "blue" });
    await submitAs(msw, { sourceUrl: "https://b.example.com/", prompt: "red" });
    await msw.call({
      method: "POST",
      path: "/v1/dashboard/api-tokens",
      headers: bearer(TOKEN.unrestricted),
      json: { name: "ci", claims: [{ name: "manage-api-tokens", readonly: true }] },
    });
    const query = `?operation=submitRebuild&body=${encodeURIComponent(JSON.stringify({ prompt: "red" }))}`;
    const overHttp = (await journal(msw, query)).entries;
    expect(overHttp.map((e) => e.body)).toEqual([{ sourceUrl: "https://b.example.com/", prompt: "red" }]);
    expect(msw.world.listRequests({ body: { prompt: "red" } }).entries).toEqual(overHttp);
    expect(msw.world.listRequests({ body: '{"prompt":"red"}' }).entries).toEqual(overHttp);
    // Arrays: each element of the pattern matches some element; objects: a subset of the keys.
    const tokens = msw.world.listRequests({ body: { claims: [{ readonly: true }] } }).entries;
    expect(tokens.map((e) => e.operationId)).toEqual(["createApiToken"]);
    expect(msw.world.listRequests({ body: { claims: [{ readonly: false }] } }).entries).toEqual([]);
    expect(msw.world.listRequests({ body: { prompt: "green" } }).entries).toEqual([]);
  });

  it("a body filter that is not JSON is 400 at body, over HTTP and in-process", async () => {
    expectFieldErrors(await msw.call({ path: "/__mock/requests?body=%7Bnope" }), [
      { type: "invalid_format", path: "body" },
    ]);
    expect(() => msw.world.listRequests({ body: "{nope" })).toThrow(DomainError);
  });
});
