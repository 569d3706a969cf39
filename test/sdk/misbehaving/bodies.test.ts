// Success answers whose bodies break the contract, for every operation: the SDK never resolves a
// value that breaks its declared type. Each rejects with a ResponseValidationError (status, method,
// path, JSON path of the first problem), is never retried and quotes nothing of the body. What the
// API may add later (unknown fields, unknown enum strings) is tolerated.
import { describe, expect, it } from "vitest";
import { ResponseValidationError, SdkError } from "../../../src/index.js";
import { type Misbehaving, misbehaving, rejection, reply } from "./server.js";

const GUID = "3f9a6c2e-8b1d-4e57-a0c4-7d2e9b5f1a63";
const server = { guid: GUID, product: "plesk", address: "https://srv1.example.com:8443", active: true };
const token = {
  id: 7,
  name: "CI",
  type: "user",
  claims: [
    { name: "mcp", readonly: true, attributes: { serverGuid: GUID } },
    { name: "manage-api-tokens", readonly: false },
  ],
  createdAt: "2026-11-22T02:39:49+00:00",
  lastUsedAt: null,
  expireAt: null,
};
const running = { requestId: "req_1", projectId: "prj_1", status: "running" };

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

interface Operation {
  readonly name: string;
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly valid: unknown;
  /** A valid body with one field of the wrong type, and where that is. */
  readonly broken: readonly [body: unknown, jsonPath: string];
  readonly call: (m: Misbehaving) => PromiseLike<unknown>;
}

const operations: Operation[] = [
  {
    name: "servers.list",
    status: 200,
    method: "GET",
    path: "/v1/si/servers",
    valid: { totalCount: 1, data: [server] },
    broken: [{ totalCount: 1, data: [{ ...server, guid: 5 }] }, "$.data[0].guid"],
    call: (m) => m.dashboard().servers.list({ page: 2 }),
  },
  {
    name: "servers.listAll",
    status: 200,
    method: "GET",
    path: "/v1/si/servers",
    valid: { totalCount: 1, data: [server] },
    broken: [{ totalCount: "1", data: [server] }, "$.totalCount"],
    call: (m) => collect(m.dashboard().servers.listAll()),
  },
  {
    name: "servers.connect",
    status: 201,
    method: "POST",
    path: "/v1/si/servers",
    valid: { data: [server] },
    broken: [{ data: [{ ...server, active: "yes" }] }, "$.data[0].active"],
    call: (m) => m.dashboard().servers.connect([{ address: server.address, product: "plesk" }]),
  },
  {
    name: "apiTokens.list",
    status: 200,
    method: "GET",
    path: "/v1/dashboard/api-tokens",
    valid: { totalCount: 1, data: [token] },
    broken: [{ totalCount: 1, data: [{ ...token, lastUsedAt: 0 }] }, "$.data[0].lastUsedAt"],
    call: (m) => m.dashboard().apiTokens.list({ filter: "ci" }),
  },
  {
    name: "apiTokens.listAll",
    status: 200,
    method: "GET",
    path: "/v1/dashboard/api-tokens",
    valid: { totalCount: 1, data: [token] },
    broken: [
      { totalCount: 1, data: [{ ...token, claims: [{ name: "mcp", readonly: true }] }] },
      "$.data[0].claims[0].attributes",
    ],
    call: (m) => collect(m.dashboard().apiTokens.listAll()),
  },
  {
    name: "apiTokens.create",
    status: 201,
    method: "POST",
    path: "/v1/dashboard/api-tokens",
    valid: { data: { ...token, token: "dmt_new_secret_0123456789abcdef0123" } },
    broken: [{ data: { ...token, token: 5 } }, "$.data.token"],
    call: (m) => m.dashboard().apiTokens.create({ name: "CI", claims: [] }),
  },
  {
    name: "apiTokens.get",
    status: 200,
    method: "GET",
    path: "/v1/dashboard/api-tokens/7",
    valid: { data: token },
    broken: [{ data: { ...token, id: "7" } }, "$.data.id"],
    call: (m) => m.dashboard().apiTokens.get(7),
  },
  {
    name: "accounts.sendInvitations",
    status: 202,
    method: "POST",
    path: "/v1/accounts/invitations",
    valid: { data: [{ email: "a@example.com", status: "sent" }] },
    broken: [{ data: [{ email: null, status: "sent" }] }, "$.data[0].email"],
    call: (m) => m.dashboard().accounts.sendInvitations(["a@example.com"]),
  },
  {
    name: "accounts.getTeamGuid",
    status: 200,
    method: "GET",
    path: "/v1/accounts/team-guid",
    valid: { data: { email: "a@example.com", teamGuid: GUID } },
    broken: [{ data: { email: "a@example.com" } }, "$.data.teamGuid"],
    call: (m) => m.dashboard().accounts.getTeamGuid("a@example.com"),
  },
  {
    name: "rebuild.submit (202, new)",
    status: 202,
    method: "POST",
    path: "/api/integration/partners/hostpanel/rebuilds",
    valid: running,
    broken: [{ ...running, previewUrl: "https://p.example.com/" }, "$.previewUrl"],
    call: (m) => m.rebuild().submit({ sourceUrl: "https://www.example.com/" }),
  },
  {
    name: "rebuild.submit (200, existing)",
    status: 200,
    method: "POST",
    path: "/api/integration/partners/hostpanel/rebuilds",
    valid: { ...running, status: "success", previewUrl: "https://p.example.com/" },
    broken: [{ ...running, status: "success" }, "$.previewUrl"],
    call: (m) => m.rebuild().submit({ sourceUrl: "https://www.example.com/" }),
  },
];

// [what, raw body, JSON path]
const badBodies: [string, string, string][] = [
  ["an empty body", "", "$"],
  ["not JSON (an HTML page)", "<html><body>body-marker page</body></html>", "$"],
  ["truncated JSON", '{"data":{"id":12,"token":"body-marker', "$"],
  ["null", "null", "$"],
  ["a number", "42", "$"],
  ["a string", '"ok"', "$"],
  ["an array", "[]", "$"],
];

describe.each(operations)("$name", (op) => {
  it("resolves a valid body (and tolerates unknown fields)", async () => {
    const m = await misbehaving(reply(op.status, op.valid));
    await expect(op.call(m)).resolves.toBeDefined();
  });

  it.each(badBodies)(
    "%s: ResponseValidationError, never retried, quoting nothing",
    async (_, body, jsonPath) => {
      const m = await misbehaving(reply(op.status, body));
      const error = await rejection(op.call(m));
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error).toBeInstanceOf(SdkError);
      expect(error).toMatchObject({ status: op.status, method: op.method, path: op.path, jsonPath });
      expect(error.message).toMatch(new RegExp(`^${op.method} ${op.path} answered ${op.status} with `));
      expect(JSON.stringify([error.message, error.stack, error])).not.toContain("body-marker");
      expect(error.cause).toBeUndefined();
      expect(m.requests).toHaveLength(1);
    },
  );

  it("{} is a required field missing", async () => {
    const m = await misbehaving(reply(op.status, {}));
    const error = await rejection(op.call(m));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).jsonPath).toMatch(/^\$\.\w+$/);
    expect(error.message).toContain(": required)");
  });

  it(`a field of the wrong JSON type: ${op.broken[1]}`, async () => {
    const m = await misbehaving(reply(op.status, op.broken[0]));
    const error = await rejection(op.call(m));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).jsonPath).toBe(op.broken[1]);
    expect(m.requests).toHaveLength(1);
  });
});

describe("apiTokens.create whose 201 is broken", () => {
  it("says a token may exist and its secret is lost, and carries the id when the body had one", async () => {
    const m = await misbehaving(reply(201, { data: { ...token, id: 12, token: 5 } }));
    const error = (await rejection(
      m.dashboard().apiTokens.create({ name: "CI", claims: [] }),
    )) as ResponseValidationError;
    expect(error.message).toContain("A token may have been created and its secret lost: delete it");
    expect(error.tokenId).toBe(12);
  });

  it("without an id to read: the same warning, no tokenId", async () => {
    const m = await misbehaving(reply(201, {}));
    const error = (await rejection(
      m.dashboard().apiTokens.create({ name: "CI", claims: [] }),
    )) as ResponseValidationError;
    expect(error.message).toContain("its secret lost");
    expect(error.tokenId).toBeUndefined();
  });

  it("withResponse() rejects the same way", async () => {
    const m = await misbehaving(reply(201, { data: { id: 3 } }));
    const error = (await rejection(
      m.dashboard().apiTokens.create({ name: "CI", claims: [] }).withResponse(),
    )) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.tokenId).toBe(3);
  });
});

describe("what the API may add is tolerated", () => {
  it("unknown fields, an unknown claim and token type, an unknown rebuild status", async () => {
    const future = {
      totalCount: 1,
      data: [
        {
          ...token,
          type: "service",
          claims: [{ name: "billing", readonly: false, scope: "all" }],
          color: "red",
        },
      ],
      nextCursor: "abc",
    };
    const dashboard = await misbehaving(reply(200, future));
    await expect(dashboard.dashboard().apiTokens.list()).resolves.toEqual(future);
    const rebuild = await misbehaving(reply(200, { ...running, status: "queued", eta: 30 }));
    await expect(rebuild.rebuild().submit({ sourceUrl: "https://www.example.com/" })).resolves.toMatchObject({
      status: "queued",
      created: false,
    });
  });

  it("but a non-string where an enum string belongs is still wrong", async () => {
    const m = await misbehaving(reply(200, { totalCount: 1, data: [{ ...token, type: 1 }] }));
    const error = (await rejection(m.dashboard().apiTokens.list())) as ResponseValidationError;
    expect(error.jsonPath).toBe("$.data[0].type");
    expect(error.message).toContain("expected string, got integer");
  });

  it("an undocumented 2xx is read as the operation's documented answer", async () => {
    const ok = await misbehaving(reply(201, running));
    await expect(ok.rebuild().submit({ sourceUrl: "https://a.example.com/" })).resolves.toMatchObject(
      running,
    );
    const broken = await misbehaving(reply(203, { totalCount: 1 }));
    expect(await rejection(broken.dashboard().servers.list())).toBeInstanceOf(ResponseValidationError);
  });

  it("a delete's body, which the contract does not document, is ignored", async () => {
    const m = await misbehaving(reply(200, "<html>deleted</html>"));
    await expect(m.dashboard().apiTokens.delete(7)).resolves.toBeUndefined();
  });
});
