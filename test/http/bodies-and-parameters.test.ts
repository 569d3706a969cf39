// contract-decisions, "Shared shapes": the error envelope, field errors, request bodies (size, media
// type, charset, UTF-8, empty, non-object, invalid JSON, bodies on GET/DELETE), query strings and
// path ids, all through the MSW adapter with plain fetch.
import { describe, expect, it } from "vitest";
import { SERVER_1, SERVER_2, TOKEN } from "../support/default-seed.js";
import { bearer, dashboardAs, REBUILDS_PATH, rebuildHeaders, submitRebuild } from "./support/client.js";
import { expectError, expectFieldErrors } from "./support/expectations.js";
import { useMswMock } from "./support/harness.js";

const { call, control } = useMswMock();
const asOwner = dashboardAs(call, TOKEN.unrestricted);

/** A token creation request with a raw body. */
const createToken = (body: string | Uint8Array<ArrayBuffer>, contentType?: string) =>
  call({
    method: "POST",
    path: "/v1/dashboard/api-tokens",
    headers: {
      ...bearer(TOKEN.unrestricted),
      ...(contentType === undefined ? {} : { "content-type": contentType }),
    },
    body,
  });

describe("error envelope: { message, error: { code } }, plus errors on a 400", () => {
  it.each([
    ["400", () => asOwner("POST", "/si/servers", {}), 400, "VALIDATION_FAILED"],
    ["401", () => call({ path: "/v1/si/servers" }), 401, "UNAUTHORIZED"],
    ["403", () => dashboardAs(call, TOKEN.mcp)("GET", "/si/servers"), 403, "FORBIDDEN"],
    [
      "403 feature",
      () => submitRebuild(call, {}, { partnerId: "1002", apiKey: "mock-rebuild-key-1002" }),
      403,
      "FEATURE_NOT_ENABLED",
    ],
    ["404", () => asOwner("GET", "/dashboard/api-tokens/404"), 404, "NOT_FOUND"],
    ["405", () => call({ method: "DELETE", path: "/v1/si/servers" }), 405, "METHOD_NOT_ALLOWED"],
    ["413", () => createToken(`"${"x".repeat(1024 * 1024)}"`, "application/json"), 413, "PAYLOAD_TOO_LARGE"],
    ["415", () => createToken("{}", "text/plain"), 415, "UNSUPPORTED_MEDIA_TYPE"],
    [
      "422",
      () =>
        submitRebuild(
          call,
          { sourceUrl: "https://example.com" },
          { partnerId: "1003", apiKey: "mock-rebuild-key-1003" },
        ),
      422,
      "WEBHOOKS_NOT_CONFIGURED",
    ],
  ] as const)("%s has the envelope and its code", async (_, send, status, code) => {
    expectError(await send(), status, code);
  });

  it("a 400 lists one field error per invalid field, each with type, dotted path and message", async () => {
    const answer = await asOwner("POST", "/dashboard/api-tokens", {
      name: 5,
      claims: [{ name: "mcp", attributes: { serverGuid: "nope", panelUser: "" } }, "x"],
      extra: true,
    });
    expectFieldErrors(answer, [
      { type: "unknown_field", path: "extra" },
      { type: "invalid_type", path: "name" },
      { type: "invalid_format", path: "claims.0.attributes.serverGuid" },
      { type: "too_small", path: "claims.0.attributes.panelUser" },
      { type: "invalid_type", path: "claims.1" },
    ]);
  });
});

describe("request bodies", () => {
  it.each([
    ["an array", "[]"],
    ["a string", '"name"'],
    ["a number", "42"],
    ["null", "null"],
    ["true", "true"],
  ])('a body that is not an object (%s) gets one invalid_type error at path ""', async (_, body) => {
    expectFieldErrors(await createToken(body, "application/json"), [{ type: "invalid_type", path: "" }]);
  });

  it.each([
    ["truncated", '{"name": "x"'],
    ["a trailing comma", '{"name": "x",}'],
    ["single quotes", "{'name': 'x'}"],
    ["two documents", "{} {}"],
  ])('invalid JSON (%s) gets one invalid_format error at path ""', async (_, body) => {
    expectFieldErrors(await createToken(body, "application/json"), [{ type: "invalid_format", path: "" }]);
  });

  it('invalid UTF-8 gets 400 at path ""', async () => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('{"name":"'),
      0xff,
      0xfe,
      ...new TextEncoder().encode('","claims":[]}'),
    ]);
    expectFieldErrors(await createToken(bytes, "application/json"), [{ type: "invalid_format", path: "" }]);
  });

  it.each([
    ["application/json", 201],
    ["application/json; charset=utf-8", 201],
    ["application/json;charset=UTF-8", 201],
    ["Application/JSON", 201],
    ["application/vnd.api+json", 201],
    ["text/plain", 415],
    ["text/plain; charset=utf-8", 415],
    ["application/x-www-form-urlencoded", 415],
    ["application/jsonp", 415],
  ])("Content-Type %s answers %i (JSON and *+json, charset accepted)", async (type, status) => {
    expect((await createToken(JSON.stringify({ name: "é ü ✓", claims: [] }), type)).status).toBe(status);
  });

  it("a non-empty body without a Content-Type gets 415", async () => {
    expectError(await createToken(new TextEncoder().encode("{}")), 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("bodies are decoded as UTF-8 and stored as sent", async () => {
    const answer = await createToken(
      JSON.stringify({ name: "Łódź — 東京 🚀", claims: [] }),
      "application/json; charset=utf-8",
    );
    expect(answer.body).toMatchObject({ data: { name: "Łódź — 東京 🚀" } });
  });

  it.each([["application/json"], ["text/plain"], ["image/png"], [undefined]])(
    'an empty body with Content-Type %s is a missing body: 400 required at ""',
    async (type) => {
      expectFieldErrors(await createToken("", type), [{ type: "required", path: "" }]);
    },
  );

  it("a body of exactly 1 MiB is read; one byte more is 413", async () => {
    const fill = (size: number) => {
      const shell = JSON.stringify({ name: "", claims: [] });
      return JSON.stringify({ name: "x".repeat(size - shell.length), claims: [] });
    };
    const exact = fill(1024 * 1024);
    expect(exact.length).toBe(1024 * 1024);
    expectFieldErrors(await createToken(exact, "application/json"), [
      { type: "invalid_format", path: "name" },
    ]);
    expectError(await createToken(fill(1024 * 1024 + 1), "application/json"), 413, "PAYLOAD_TOO_LARGE");
  });

  it("bodies on DELETE are ignored, whatever their size or type", async () => {
    const answer = await call({
      method: "DELETE",
      path: `/v1/si/servers/${SERVER_2}`,
      headers: { ...bearer(TOKEN.unrestricted), "content-type": "text/plain" },
      body: "x".repeat(2 * 1024 * 1024),
    });
    expect(answer.status).toBe(204);
    expect(answer.body).toBeUndefined();
    const token = await call({
      method: "DELETE",
      path: "/v1/dashboard/api-tokens/4",
      headers: { ...bearer(TOKEN.unrestricted), "content-type": "application/json" },
      body: "{not json",
    });
    expect(token.status).toBe(204);
  });

  it("the rebuild API applies the same body rules, with the RateLimit headers", async () => {
    const send = (body: string, contentType?: string) =>
      call({
        method: "POST",
        path: REBUILDS_PATH,
        headers: {
          ...rebuildHeaders(),
          ...(contentType === undefined ? {} : { "content-type": contentType }),
        },
        body,
      });
    expectFieldErrors(await send("[]", "application/json"), [{ type: "invalid_type", path: "" }]);
    expectFieldErrors(await send("{", "application/json"), [{ type: "invalid_format", path: "" }]);
    expectFieldErrors(await send("", "text/plain"), [{ type: "required", path: "" }]);
    expectError(
      await send('{"sourceUrl":"https://example.com"}', "text/plain"),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
    const ok = await send('{"sourceUrl":"https://example.com"}', "application/json; charset=utf-8");
    expect(ok.status).toBe(202);
    expect(ok.headers.get("ratelimit-remaining")).toBe("25");
  });

  it("unknown body fields get unknown_field, a value outside an allowed set invalid_value", async () => {
    expectFieldErrors(await submitRebuild(call, { sourceUrl: "https://example.com", callbackUrl: "x" }), [
      { type: "unknown_field", path: "callbackUrl" },
    ]);
    expectFieldErrors(
      await asOwner("POST", "/dashboard/api-tokens", { name: "x", claims: [{ name: "admin" }] }),
      [{ type: "invalid_value", path: "claims.0.name" }],
    );
  });

  it("a rejected request creates, changes or deletes nothing", async () => {
    const before = await control.state();
    await asOwner("POST", "/si/servers", {
      servers: [
        { address: "https://ok.example.com", product: "plesk" },
        { address: "nope", product: "plesk" },
      ],
    });
    await asOwner("POST", "/accounts/invitations", { emails: ["a@example.com", "not an email"] });
    await asOwner("POST", "/dashboard/api-tokens", { name: "x", claims: [{ name: "mcp" }, { name: "mcp" }] });
    await dashboardAs(call, TOKEN.manage)("POST", "/dashboard/api-tokens", { name: "x", claims: [] });
    await submitRebuild(call, { sourceUrl: "https://example.com", prompt: null });
    await submitRebuild(
      call,
      { sourceUrl: "https://example.com" },
      { partnerId: "1003", apiKey: "mock-rebuild-key-1003" },
    );
    const after = await control.state();
    expect(after.dashboard.servers).toEqual(before.dashboard.servers);
    expect(after.dashboard.invitations).toEqual([]);
    expect(after.dashboard.tokens.map((t) => t.id)).toEqual(before.dashboard.tokens.map((t) => t.id));
    expect(after.rebuild.rebuilds).toEqual([]);
  });
});

describe("query strings", () => {
  it.each([
    ["page=1&page=2", "page"],
    ["pageSize=10&pageSize=10", "pageSize"],
    ["page=", "page"],
    ["pageSize=", "pageSize"],
    ["pageSize", "pageSize"],
  ])("a repeated or empty-valued known parameter gets 400 at its name (%s)", async (query, path) => {
    const answer = await asOwner("GET", `/si/servers?${query}`);
    expectError(answer, 400, "VALIDATION_FAILED");
    expect((answer.body as { errors: Array<{ path: string }> }).errors.map((e) => e.path)).toEqual([path]);
  });

  it("filter and email follow the same rule", async () => {
    expectError(await asOwner("GET", "/dashboard/api-tokens?filter=a&filter=b"), 400, "VALIDATION_FAILED");
    expectFieldErrors(await asOwner("GET", "/dashboard/api-tokens?filter="), [
      { type: "too_small", path: "filter" },
    ]);
    expectError(await asOwner("GET", "/accounts/team-guid?email="), 400, "VALIDATION_FAILED");
    expectError(
      await asOwner("GET", "/accounts/team-guid?email=owner@example.com&email=owner@example.com"),
      400,
      "VALIDATION_FAILED",
    );
  });

  it("every invalid parameter is listed, path = parameter name", async () => {
    expectFieldErrors(await asOwner("GET", "/si/servers?page=0&pageSize=101"), [
      { type: "too_small", path: "page" },
      { type: "too_big", path: "pageSize" },
    ]);
  });

  it("unknown parameters are ignored", async () => {
    const answer = await asOwner("GET", "/si/servers?sort=desc&page=1&x=&x=&apiKey=1");
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ totalCount: 3 });
  });
});

describe("path ids", () => {
  it.each(["0", "01", "-1", "1.0", "1e0", "abc", "%20", "99999999999999999999", "1%2F2"])(
    "a token id that cannot exist (%s) gets 404 like a missing one",
    async (id) => {
      expectError(await asOwner("GET", `/dashboard/api-tokens/${id}`), 404, "NOT_FOUND");
      expectError(await asOwner("DELETE", `/dashboard/api-tokens/${id}`), 404, "NOT_FOUND");
    },
  );

  it.each([
    "not-a-guid",
    SERVER_1.replaceAll("-", ""),
    `${SERVER_1}0`,
    `{${SERVER_1}}`,
    "00000000-0000-0000-0000-000000000000",
  ])("a server id that is not a known GUID (%s) gets 404", async (guid) => {
    expectError(await asOwner("DELETE", `/si/servers/${encodeURIComponent(guid)}`), 404, "NOT_FOUND");
  });

  it("GUIDs in paths match case-insensitively", async () => {
    expect((await asOwner("DELETE", `/si/servers/${SERVER_1.toUpperCase()}`)).status).toBe(204);
    expectError(await asOwner("DELETE", `/si/servers/${SERVER_1}`), 404, "NOT_FOUND");
    const list = await asOwner<{ data: Array<{ guid: string }> }>("GET", "/si/servers");
    expect(list.body.data.map((s) => s.guid)).not.toContain(SERVER_1);
  });
});
