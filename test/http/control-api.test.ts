// contract-decisions, "Assignment" and "Mock control API details": magic links, "Clone to user",
// completion, key rotation, partner settings, reset, state, fault injection and the clock, all
// through `/__mock` over HTTP.
import { describe, expect, it } from "vitest";
import { defaultDashboardSeed } from "../../mocks/index.js";
import { FROZEN_AT, PARTNER, TOKEN } from "../support/default-seed.js";
import { dashboardAs, submitRebuild } from "./support/client.js";
import { expectError, expectFieldErrors } from "./support/expectations.js";
import { useMswMock } from "./support/harness.js";

const { world, call, control, origin } = useMswMock();

interface Rebuild {
  requestId: string;
  projectId: string;
}

async function succeeded(sourceUrl = "https://www.example.com/"): Promise<Rebuild> {
  const { body } = await submitRebuild<Rebuild>(call, { sourceUrl });
  await control.advance(5);
  return body;
}

/** Base64 (standard alphabet, padded) of the UTF-8 text `rebuildId=<projectId>`. */
const promptToken = (projectId: string) => Buffer.from(`rebuildId=${projectId}`, "utf8").toString("base64");

const openLink = (body: unknown) => call({ method: "POST", path: "/__mock/magic-links/open", json: body });

describe("magic links: assigned only for a success rebuild of that partner", () => {
  it("a success rebuild's token assigns a new, independent copy each time", async () => {
    const { projectId } = await succeeded();
    const first = await openLink({
      partnerId: 1001,
      promptToken: promptToken(projectId),
      customerId: "cust-1",
    });
    const second = await openLink({
      partnerId: "1001",
      promptToken: promptToken(projectId),
      customerId: "cust-1",
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ assigned: true, projectId: expect.any(String), brand: null });
    expect(second.body).toEqual({ assigned: true, projectId: expect.any(String), brand: null });
    const ids = [projectId, ...[first, second].map((a) => (a.body as { projectId: string }).projectId)];
    expect(new Set(ids).size).toBe(3);
    const { projects } = (await control.state()).rebuild;
    expect(projects.map((p) => [p.projectId, p.owner, p.copiedFrom])).toEqual([
      [projectId, { kind: "system" }, null],
      [ids[1], { kind: "customer", customerId: "cust-1" }, projectId],
      [ids[2], { kind: "customer", customerId: "cust-1" }, projectId],
    ]);
    // The original and its preview URL are unchanged.
    const again = await submitRebuild(call, { sourceUrl: "https://www.example.com/" });
    expect(again.body).toMatchObject({
      projectId,
      previewUrl: `https://preview.mock.example/projects/${projectId}`,
    });
  });

  it("a percent-encoded token works like the raw one", async () => {
    const { projectId } = await succeeded();
    const answer = await openLink({
      partnerId: 1001,
      promptToken: encodeURIComponent(promptToken(projectId)),
      customerId: "c",
    });
    expect(answer.body).toMatchObject({ assigned: true });
  });

  it.each([
    ["a running rebuild", "running"],
    ["a failed rebuild", "failed"],
    ["another partner's rebuild", "other-partner"],
    ["an unknown project", "unknown"],
    ["a token that is not Base64", "garbage"],
    ["a token without the rebuildId= prefix", "no-prefix"],
  ])("%s is ignored: 200 with assigned false", async (_, kind) => {
    const running = await submitRebuild<Rebuild>(call, { sourceUrl: "https://stall.example.com/" });
    const failed = await submitRebuild<Rebuild>(call, { sourceUrl: "https://fail.example.com/" });
    const ok = await succeeded();
    const tokens: Record<string, [number, string]> = {
      running: [1001, promptToken(running.body.projectId)],
      failed: [1001, promptToken(failed.body.projectId)],
      "other-partner": [1002, promptToken(ok.projectId)],
      unknown: [1001, promptToken("00000000-0000-4000-8000-000000000000")],
      garbage: [1001, "not base64!"],
      "no-prefix": [1001, Buffer.from(ok.projectId).toString("base64")],
    };
    const [partnerId, token] = tokens[kind] ?? [0, ""];
    const answer = await openLink({ partnerId, promptToken: token, customerId: "c" });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ assigned: false, brand: null });
    expect((await control.state()).rebuild.projects).toHaveLength(3);
  });

  it.each([
    ["no body", undefined, [{ type: "required", path: "" }]],
    [
      "no fields",
      {},
      [
        { type: "required", path: "partnerId" },
        { type: "required", path: "promptToken" },
        { type: "required", path: "customerId" },
      ],
    ],
    [
      "a bad partnerId",
      { partnerId: "01001", promptToken: "x", customerId: "c" },
      [{ type: "invalid_format", path: "partnerId" }],
    ],
    [
      "an empty customerId",
      { partnerId: 1001, promptToken: "x", customerId: "" },
      [{ type: "too_small", path: "customerId" }],
    ],
    [
      "an unknown field",
      { partnerId: 1001, promptToken: "x", customerId: "c", x: 1 },
      [{ type: "unknown_field", path: "x" }],
    ],
  ])("%s gets 400", async (_, body, errors) => {
    expectFieldErrors(await openLink(body), errors);
  });
});

describe("clone to user: success rebuilds only", () => {
  const clone = (requestId: string, body: unknown) =>
    call({ method: "POST", path: `/__mock/rebuilds/${requestId}/clone`, json: body });

  it("201 with a new project copied from the original, every time", async () => {
    const { requestId, projectId } = await succeeded();
    const first = await clone(requestId, { userId: "user-7" });
    const second = await clone(requestId, { userId: "user-7" });
    expect([first.status, second.status]).toEqual([201, 201]);
    const copies = (await control.state()).rebuild.projects.filter((p) => p.copiedFrom === projectId);
    expect(copies.map((p) => p.owner)).toEqual([
      { kind: "user", userId: "user-7" },
      { kind: "user", userId: "user-7" },
    ]);
    expect(copies.map((p) => p.projectId)).toEqual(
      [first.body, second.body].map((b) => (b as { projectId: string }).projectId),
    );
  });

  it("409 for running and failed rebuilds, 404 for an unknown one, 400 before either", async () => {
    const running = await submitRebuild<Rebuild>(call, { sourceUrl: "https://stall.example.com/" });
    const failed = await submitRebuild<Rebuild>(call, { sourceUrl: "https://fail.example.com/" });
    await control.advance(5);
    expect((await clone(running.body.requestId, { userId: "u" })).status).toBe(409);
    expect((await clone(failed.body.requestId, { userId: "u" })).status).toBe(409);
    expect((await clone("no-such-request", { userId: "u" })).status).toBe(404);
    expectFieldErrors(await clone("no-such-request", {}), [{ type: "required", path: "userId" }]);
  });
});

describe("complete: 200 with the rebuild, 404 unknown, 409 no longer running", () => {
  const complete = (requestId: string, body?: unknown) =>
    call({
      method: "POST",
      path: `/__mock/rebuilds/${requestId}/complete`,
      ...(body === undefined ? {} : { json: body }),
    });

  it("an empty body completes with success, delivering the callback before answering", async () => {
    const { body } = await submitRebuild<Rebuild>(call, { sourceUrl: "https://stall.example.com/" });
    const answer = await complete(body.requestId);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      requestId: body.requestId,
      status: "success",
      previewUrl: expect.any(String),
    });
    expect(await control.sink(PARTNER.ok.id)).toHaveLength(1);
    expect((await complete(body.requestId)).status).toBe(409);
    expect((await complete("nope")).status).toBe(404);
  });

  it("a completed rebuild no longer completes on the clock", async () => {
    const { body } = await submitRebuild<Rebuild>(call, { sourceUrl: "https://www.example.com/" });
    await complete(body.requestId, { status: "failed" });
    await control.advance(60);
    expect((await control.deliveries()).map((d) => d.body.status)).toEqual(["failed"]);
  });

  it.each([
    [{ status: "done" }, [{ type: "invalid_value", path: "status" }]],
    [{ errorCode: "x" }, [{ type: "unknown_field", path: "errorCode" }]],
    [{ status: "failed", errorMessage: "" }, [{ type: "too_small", path: "errorMessage" }]],
    [[], [{ type: "invalid_type", path: "" }]],
  ])("%j gets 400, checked before the id", async (body, errors) => {
    expectFieldErrors(await complete("no-such-request", body), errors);
  });
});

describe("key rotation", () => {
  it("the new key works at once and the old one gets 401", async () => {
    const rotated = await call<{ apiKey: string }>({
      method: "POST",
      path: `/__mock/partners/${PARTNER.ok.id}/rotate-key`,
    });
    expect(rotated.status).toBe(200);
    const { apiKey } = rotated.body;
    expect(apiKey).not.toBe(PARTNER.ok.apiKey);
    expectError(await submitRebuild(call, { sourceUrl: "https://a.example.com" }), 401, "UNAUTHORIZED");
    expect((await submitRebuild(call, { sourceUrl: "https://a.example.com" }, { apiKey })).status).toBe(202);
    const state = await control.state();
    expect(state.rebuild.partners.find((p) => p.id === 1001)?.apiKey).toBe(apiKey);
  });

  it("an unknown partner is 404", async () => {
    expect((await call({ method: "POST", path: "/__mock/partners/4242/rotate-key" })).status).toBe(404);
  });
});

describe("PUT /__mock/partners/{id}: create or patch, 200 with the full settings", () => {
  const put = (id: string, body?: unknown) =>
    call<Record<string, unknown>>({
      method: "PUT",
      path: `/__mock/partners/${id}`,
      ...(body === undefined ? {} : { json: body }),
    });

  it("a new partner defaults to: feature on, generated distinct keys, the built-in sink, region eu, 30 per hour", async () => {
    const created = await put("2001");
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: 2001,
      featureEnabled: true,
      apiKey: expect.any(String),
      webhookUrl: `${origin}/__mock/webhook-sink/2001`,
      webhookApiKey: expect.any(String),
      region: "eu",
      rateLimitPerHour: 30,
      brands: [],
    });
    expect(created.body.apiKey).not.toBe(created.body.webhookApiKey);
    const auth = { partnerId: "2001", apiKey: String(created.body.apiKey) };
    expect((await submitRebuild(call, { sourceUrl: "https://www.example.com/" }, auth)).status).toBe(202);
    await control.advance(5);
    const [entry] = await control.sink("2001");
    expect(entry?.headers["x-api-key"]).toBe(created.body.webhookApiKey);
  });

  it("a patch changes only the given fields", async () => {
    const patched = await put(PARTNER.ok.id, {
      region: "us-east",
      rateLimitPerHour: 100,
      apiKey: "new-rebuild-key",
    });
    expect(patched.body).toMatchObject({
      id: 1001,
      featureEnabled: true,
      apiKey: "new-rebuild-key",
      webhookUrl: `${origin}/__mock/webhook-sink/1001`,
      webhookApiKey: PARTNER.ok.webhookApiKey,
      region: "us-east",
      rateLimitPerHour: 100,
    });
    expect(
      (
        await submitRebuild(call, { sourceUrl: "https://a.example.com" }, { apiKey: "new-rebuild-key" })
      ).headers.get("ratelimit-limit"),
    ).toBe("100");
  });

  it.each([
    ["rateLimitPerHour 0", { rateLimitPerHour: 0 }, "too_small", "rateLimitPerHour"],
    ["rateLimitPerHour 1.5", { rateLimitPerHour: 1.5 }, "invalid_type", "rateLimitPerHour"],
    ["featureEnabled not a boolean", { featureEnabled: "yes" }, "invalid_type", "featureEnabled"],
    ["an empty apiKey", { apiKey: "" }, "too_small", "apiKey"],
    ["an apiKey with a space", { apiKey: "a b" }, "invalid_format", "apiKey"],
    [
      "the rebuild key equal to the webhook key",
      { apiKey: PARTNER.ok.webhookApiKey },
      "invalid_value",
      "apiKey",
    ],
    [
      "the webhook key equal to the rebuild key",
      { webhookApiKey: PARTNER.ok.apiKey },
      "invalid_value",
      "webhookApiKey",
    ],
    [
      "a webhook URL that is not http(s)",
      { webhookUrl: "ftp://example.com" },
      "invalid_format",
      "webhookUrl",
    ],
    ["a bad region", { region: "EU West" }, "invalid_format", "region"],
    ["an unknown field", { plan: "gold" }, "unknown_field", "plan"],
  ])("%s gets 400 and changes nothing", async (_, body, type, path) => {
    const before = (await control.state()).rebuild.partners;
    expectFieldErrors(await put(PARTNER.ok.id, body), [{ type, path }]);
    expect((await control.state()).rebuild.partners).toEqual(before);
  });

  it.each(["0", "01001", "abc", "-5"])("partner id %s is 404: no partner can have it", async (id) => {
    expectError(await put(id, {}), 404, "NOT_FOUND");
  });

  it("a body that is not an object is 400 at the root", async () => {
    expectFieldErrors(await put(PARTNER.ok.id, [1]), [{ type: "invalid_type", path: "" }]);
  });
});

describe("POST /__mock/reset restores the seed and clears deliveries, sink, faults and clock offset", () => {
  it("204, and everything is as at the start", async () => {
    const initial = await control.state();
    // Change every part of the world.
    const asOwner = dashboardAs(call, TOKEN.unrestricted);
    const created = await asOwner<{ data: { token: string } }>("POST", "/dashboard/api-tokens", {
      name: "x",
      claims: [],
    });
    await asOwner("DELETE", "/si/servers/5b1c3f0e-2a4d-4c6b-8e9f-0a1b2c3d4e01");
    await asOwner("POST", "/accounts/invitations", { emails: ["x@example.com"] });
    await succeeded();
    await call({ method: "PUT", path: "/__mock/partners/1001", json: { rateLimitPerHour: 5 } });
    await call({ method: "POST", path: "/__mock/partners/1001/rotate-key" });
    await call({ method: "PUT", path: "/__mock/faults", json: { latencyMs: 1 } });
    await control.advance(7200);
    expect((await control.deliveries()).length).toBe(1);

    const reset = await call({ method: "POST", path: "/__mock/reset" });
    expect(reset).toMatchObject({ status: 204, body: undefined });
    expect(await control.state()).toEqual(initial);
    expect(world.clock.now()).toBe(FROZEN_AT);
    expect(await control.deliveries()).toEqual([]);
    expect(await control.sink(PARTNER.ok.id)).toEqual([]);
    expect((await call({ path: "/__mock/faults" })).body).toEqual({
      latencyMs: 0,
      errorRate: 0,
      resetRate: 0,
      rules: [],
    });
    expectError(await dashboardAs(call, created.body.data.token)("GET", "/si/servers"), 401, "UNAUTHORIZED");
    expect((await submitRebuild(call, { sourceUrl: "https://www.example.com/" })).status).toBe(202);
  });

  it("a rebuild pending at reset never completes afterwards", async () => {
    await submitRebuild(call, { sourceUrl: "https://www.example.com/" });
    await control.reset();
    await control.advance(60);
    expect(await control.deliveries()).toEqual([]);
  });
});

describe("GET /__mock/state", () => {
  it("holds the whole state as JSON, and no dashboard token secret", async () => {
    const created = await dashboardAs(call, TOKEN.unrestricted)<{ data: { token: string } }>(
      "POST",
      "/dashboard/api-tokens",
      { name: "new", claims: [] },
    );
    const state = await control.state();
    expect(state.now).toBe("2026-03-01T12:00:00+00:00");
    expect(state.dashboard.tokens).toHaveLength(defaultDashboardSeed.tokens.length + 1);
    const json = JSON.stringify(state);
    for (const secret of [...defaultDashboardSeed.tokens.map((t) => t.secret), created.body.data.token]) {
      expect(json).not.toContain(secret);
    }
    // Partner keys are included on purpose: it is a development tool.
    expect(json).toContain(PARTNER.ok.apiKey);
  });
});

describe("fault injection: PUT /__mock/faults", () => {
  const putFaults = (body: unknown) => call({ method: "PUT", path: "/__mock/faults", json: body });

  it("errorRate 1: the public APIs answer 503 INTERNAL and change nothing; /__mock is unaffected", async () => {
    expect((await putFaults({ errorRate: 1 })).body).toEqual({
      latencyMs: 0,
      errorRate: 1,
      resetRate: 0,
      rules: [],
    });
    const answer = await dashboardAs(call, TOKEN.unrestricted)("POST", "/dashboard/api-tokens", {
      name: "x",
      claims: [],
    });
    expectError(answer, 503, "INTERNAL");
    expectError(await submitRebuild(call, { sourceUrl: "https://www.example.com/" }), 503, "INTERNAL");
    const state = await control.state();
    expect(state.dashboard.tokens).toHaveLength(defaultDashboardSeed.tokens.length);
    expect(state.rebuild.rebuilds).toEqual([]);
    expect((await call({ path: "/__mock/faults" })).body).toMatchObject({ errorRate: 1 });
  });

  it("resetRate 1: the connection drops (fetch rejects) after the request ran", async () => {
    await putFaults({ resetRate: 1 });
    await expect(
      fetch(`${origin}/v1/si/servers`, { headers: { authorization: `Bearer ${TOKEN.unrestricted}` } }),
    ).rejects.toThrow();
    await putFaults({ resetRate: 0 });
    expect((await dashboardAs(call, TOKEN.unrestricted)("GET", "/si/servers")).status).toBe(200);
  });

  it("a patch keeps the other settings", async () => {
    await putFaults({ latencyMs: 250 });
    expect((await putFaults({ errorRate: 0.25 })).body).toEqual({
      latencyMs: 250,
      errorRate: 0.25,
      resetRate: 0,
      rules: [],
    });
  });

  it.each([
    [{ errorRate: 2 }, [{ type: "too_big", path: "errorRate" }]],
    [{ errorRate: -0.1 }, [{ type: "too_small", path: "errorRate" }]],
    [{ resetRate: "0.5" }, [{ type: "invalid_type", path: "resetRate" }]],
    [{ latencyMs: 1.5 }, [{ type: "invalid_type", path: "latencyMs" }]],
    [{ latencyMs: 60_001 }, [{ type: "too_big", path: "latencyMs" }]],
    [{ errorRate: 0.6, resetRate: 0.6 }, [{ type: "invalid_value", path: "errorRate" }]],
    [{ chaos: true }, [{ type: "unknown_field", path: "chaos" }]],
    [[], [{ type: "invalid_type", path: "" }]],
  ])("%j gets 400 and changes nothing", async (body, errors) => {
    expectFieldErrors(await putFaults(body), errors);
    expect((await call({ path: "/__mock/faults" })).body).toEqual({
      latencyMs: 0,
      errorRate: 0,
      resetRate: 0,
      rules: [],
    });
  });

  it("an empty body is 400 required at the root", async () => {
    expectFieldErrors(await call({ method: "PUT", path: "/__mock/faults" }), [
      { type: "required", path: "" },
    ]);
  });
});

describe("POST /__mock/clock/advance", () => {
  const advance = (body?: unknown) =>
    call({ method: "POST", path: "/__mock/clock/advance", ...(body === undefined ? {} : { json: body }) });

  it("answers { now } after moving the world clock; fractions of a second are fine", async () => {
    expect((await advance({ seconds: 90 })).body).toEqual({ now: "2026-03-01T12:01:30+00:00" });
    expect((await advance({ seconds: 0.5 })).body).toEqual({ now: "2026-03-01T12:01:30+00:00" });
    expect((await advance({ seconds: 0.5 })).body).toEqual({ now: "2026-03-01T12:01:31+00:00" });
    expect((await advance({ seconds: 0 })).status).toBe(200);
    expect((await control.state()).now).toBe("2026-03-01T12:01:31+00:00");
  });

  it.each([
    ["no body", undefined, [{ type: "required", path: "" }]],
    ["no seconds", {}, [{ type: "required", path: "seconds" }]],
    ["negative seconds", { seconds: -1 }, [{ type: "too_small", path: "seconds" }]],
    ["seconds as text", { seconds: "5" }, [{ type: "invalid_type", path: "seconds" }]],
    ["more than ten years", { seconds: 400_000_000 }, [{ type: "too_big", path: "seconds" }]],
    ["an unknown field", { seconds: 1, ms: 5 }, [{ type: "unknown_field", path: "ms" }]],
    ["an array", [], [{ type: "invalid_type", path: "" }]],
    ["null", null, [{ type: "invalid_type", path: "" }]],
  ])("%s gets 400", async (_, body, errors) => {
    expectFieldErrors(await advance(body), errors);
    expect(world.clock.now()).toBe(FROZEN_AT);
  });
});

describe("PUT /__mock/snapshot", () => {
  it("a version this mock does not know is refused on its own, as world.restore refuses it", async () => {
    const before = world.snapshot();
    const answer = await call({ method: "PUT", path: "/__mock/snapshot", json: { version: 9, hello: 1 } });
    expectFieldErrors(answer, [{ type: "invalid_value", path: "version" }]);
    // Parsed JSON of any shape, as a state file may hold.
    expect(() => world.restore({ version: 9, hello: 1 } as never)).toThrow(
      expect.objectContaining({
        code: "VALIDATION_FAILED",
        details: { fieldErrors: [expect.objectContaining({ type: "invalid_value", path: "version" })] },
      }),
    );
    expect(world.snapshot()).toEqual(before);
  });
});
