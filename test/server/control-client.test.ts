// MockControlClient (`rebuild-dashboard-kit/mocks/control`, decisions/031) against the standalone mock
// started in-process on 127.0.0.1: every method of the control API, answers equal to the world's own,
// and failures as the SDK's typed errors.
import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type ControlOperationId, MockControlClient } from "../../mocks/control/index.js";
import { createClock, type RunningMockServer, seededRandom, startMockServer } from "../../mocks/node.js";
import {
  ApiError,
  AuthenticationError,
  buildPromptToken,
  ConnectionError,
  DashboardClient,
  NotFoundError,
  PermissionDeniedError,
  RebuildClient,
  ValidationError,
} from "../../src/index.js";
import { FROZEN_AT, PARTNER, TOKEN } from "../support/default-seed.js";
import { freePort } from "../support/free-port.js";

let running: RunningMockServer;
let control: MockControlClient;

beforeAll(async () => {
  running = await startMockServer({
    port: 0,
    clock: createClock({ frozenAt: FROZEN_AT }),
    random: seededRandom(7),
  });
  control = new MockControlClient({ baseUrl: running.origin });
});
afterEach(async () => {
  await control.reset();
});
afterAll(() => running.close());

const partner1001 = () =>
  new RebuildClient({ baseUrl: running.origin, partnerId: 1001, apiKey: PARTNER.ok.apiKey, maxRetries: 0 });

/** A rebuild submitted over HTTP as partner 1001. */
const submit = (sourceUrl: string) => partner1001().submit({ sourceUrl });

/** The rejection of `promise` (fails when it resolves). */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

/** Which client method runs each operation: every one but the built-in receiver's POST. */
const METHOD_OF: Record<ControlOperationId, keyof MockControlClient> = {
  resetMock: "reset",
  getMockState: "state",
  getMockSnapshot: "snapshot",
  restoreMockSnapshot: "restore",
  advanceClock: "advanceClock",
  upsertPartner: "upsertPartner",
  rotatePartnerKey: "rotatePartnerKey",
  completeRebuild: "completeRebuild",
  cloneRebuild: "cloneRebuild",
  openMagicLink: "openMagicLink",
  listDeliveries: "listDeliveries",
  listSinkEntries: "listSinkEntries",
  getFaults: "getFaults",
  setFaults: "setFaults",
  listRequests: "listRequests",
};

describe("one method per control operation", () => {
  it("covers every operation of openapi/mock-control.yaml but the webhook receiver's POST and the console's page and events", () => {
    const document = parse(readFileSync("openapi/mock-control.yaml", "utf8")) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.values(item).flatMap((operation) => (operation.operationId ? [operation.operationId] : [])),
    );
    const notSteering = ["receiveSinkCallback", "openConsole", "streamEvents"];
    expect(ids.filter((id) => !notSteering.includes(id)).sort()).toEqual(Object.keys(METHOD_OF).sort());
    for (const method of Object.values(METHOD_OF)) {
      expect(typeof MockControlClient.prototype[method]).toBe("function");
    }
  });
});

describe("every method against the standalone mock", () => {
  it("state, snapshot and restore; reset", async () => {
    const state = await control.state();
    expect(state).toEqual(running.world.state());
    expect(state.now).toBe("2026-03-01T12:00:00+00:00");

    const saved = await control.snapshot();
    expect(saved).toEqual(running.world.snapshot());
    expect(saved.version).toBe(1);
    await control.upsertPartner(2001, { region: "us" });
    expect((await control.state()).rebuild.partners.map((p) => p.id)).toContain(2001);
    await expect(control.restore(saved)).resolves.toBeUndefined();
    expect((await control.state()).rebuild.partners.map((p) => p.id)).not.toContain(2001);

    await control.upsertPartner(2002);
    await expect(control.reset()).resolves.toBeUndefined();
    expect(await control.state()).toEqual(state);
  });

  it("advanceClock runs what fell due; listDeliveries and listSinkEntries show the callback", async () => {
    const rebuild = await submit("https://www.example.com/");
    expect(await control.advanceClock({ seconds: 5 })).toEqual({ now: "2026-03-01T12:00:05+00:00" });
    const { data: deliveries } = await control.listDeliveries();
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ requestId: rebuild.requestId, attempt: 1, responseStatus: 200 });
    const { data: sink } = await control.listSinkEntries(1001);
    expect(sink).toHaveLength(1);
    expect(sink[0]?.body).toMatchObject({ request_id: rebuild.requestId, status: "success" });
    expect(await control.listDeliveries()).toEqual(running.world.listDeliveries());
  });

  it("upsertPartner creates and changes a partner (no body changes nothing); rotatePartnerKey retires the old key", async () => {
    const created = await control.upsertPartner(2001, { region: "us", rateLimitPerHour: 5 });
    expect(created).toMatchObject({ id: 2001, region: "us", rateLimitPerHour: 5, featureEnabled: true });
    expect(await control.upsertPartner(2001)).toEqual(created);

    const before = await control.upsertPartner(1001);
    const { apiKey } = await control.rotatePartnerKey(1001);
    expect(apiKey).not.toBe(before.apiKey);
    expect(await failure(partner1001().submit({ sourceUrl: "https://www.example.com/" }))).toBeInstanceOf(
      AuthenticationError,
    );
    const rotated = new RebuildClient({ baseUrl: running.origin, partnerId: 1001, apiKey });
    expect((await rotated.submit({ sourceUrl: "https://www.example.com/" })).created).toBe(true);
  });

  it("completeRebuild, cloneRebuild and openMagicLink", async () => {
    const stalled = await submit("https://stall.example.com/");
    const failed = await control.completeRebuild(stalled.requestId, {
      status: "failed",
      errorCode: "too_big",
      errorMessage: "The site is too big.",
    });
    expect(failed).toMatchObject({ requestId: stalled.requestId, status: "failed", errorCode: "too_big" });

    const other = await submit("https://stall-two.example.com/");
    const succeeded = await control.completeRebuild(other.requestId);
    expect(succeeded).toMatchObject({ status: "success", previewUrl: expect.any(String) });

    const { projectId } = await control.cloneRebuild(other.requestId, { userId: "user-7" });
    expect(projectId).not.toBe(other.projectId);

    const link = await control.openMagicLink({
      partnerId: 1001,
      promptToken: buildPromptToken(other.projectId),
      customerId: "customer-1",
    });
    expect(link).toEqual({ assigned: true, projectId: expect.any(String), brand: null });
    const owners = (await control.state()).rebuild.projects.map((p) => p.owner.kind);
    expect(owners).toEqual(["system", "system", "user", "customer"]);

    // An empty body: the status has its default (success).
    const third = await submit("https://stall-three.example.com/");
    expect(await control.completeRebuild(third.requestId, {})).toMatchObject({ status: "success" });
  });

  it("getFaults and setFaults", async () => {
    expect(await control.getFaults()).toEqual({ latencyMs: 0, errorRate: 0, resetRate: 0, rules: [] });
    expect(await control.setFaults({ latencyMs: 5 })).toEqual({
      latencyMs: 5,
      errorRate: 0,
      resetRate: 0,
      rules: [],
    });
    expect(await control.getFaults()).toEqual(running.world.getFaults());
  });

  it("setFaults with scripted rules: the next submission 503, the one after 202", async () => {
    const rules = [{ operationId: "submitRebuild" as const, status: 503, times: 1 }];
    expect((await control.setFaults({ rules })).rules).toEqual(rules);
    await expect(submit("https://www.example.com/")).rejects.toThrow(ApiError);
    expect(await control.getFaults()).toMatchObject({ rules: [] });
    await expect(submit("https://www.example.com/")).resolves.toMatchObject({ status: "running" });
  });

  it("listRequests: the request journal, filtered", async () => {
    const dashboard = new DashboardClient({ baseUrl: running.dashboardBaseUrl, token: TOKEN.unrestricted });
    await dashboard.servers.list({ pageSize: 2 });
    await submit("https://www.example.com/");
    const all = await control.listRequests();
    expect(all).toEqual(running.world.listRequests());
    expect(all.entries.map(({ operationId, status, caller }) => ({ operationId, status, caller }))).toEqual([
      { operationId: "listServers", status: 200, caller: { tokenId: 1 } },
      { operationId: "submitRebuild", status: 202, caller: { partnerId: 1001 } },
    ]);
    const rebuilds = await control.listRequests({ operation: "submitRebuild", status: 202 });
    expect(rebuilds.entries).toHaveLength(1);
    expect(rebuilds.entries[0]?.path).toBe("/api/integration/partners/hostpanel/rebuilds");
    const byBody = await control.listRequests({ body: { sourceUrl: "https://www.example.com/" } });
    expect(byBody.entries.map((e) => e.operationId)).toEqual(["submitRebuild"]);
    expect(byBody).toEqual(running.world.listRequests({ body: { sourceUrl: "https://www.example.com/" } }));
    expect(
      (await control.listRequests({ body: { sourceUrl: "https://else.example.com/" } })).entries,
    ).toEqual([]);
  });

  it("withResponse() gives the HTTP answer too, as every SDK call", async () => {
    const { data, response } = await control.getFaults().withResponse();
    expect(response.status).toBe(200);
    expect(data.errorRate).toBe(0);
  });
});

describe("errors are the SDK's typed errors", () => {
  it("a 400 is a ValidationError with the field errors", async () => {
    const error = await failure(control.upsertPartner(1001, { rateLimitPerHour: 0, region: "EU" }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 400, code: "VALIDATION_FAILED" });
    expect((error as ValidationError).fieldErrors.map(({ type, path }) => ({ type, path }))).toEqual([
      { type: "invalid_format", path: "region" },
      { type: "too_small", path: "rateLimitPerHour" },
    ]);

    const filter = await failure(control.listRequests({ status: 99 }));
    expect(filter).toBeInstanceOf(ValidationError);
    expect((filter as ValidationError).fieldErrors).toEqual([
      { type: "too_small", path: "status", message: expect.any(String) },
    ]);
    const advance = await failure(control.advanceClock({ seconds: -1 }));
    expect((advance as ValidationError).fieldErrors.map((e) => e.path)).toEqual(["seconds"]);
  });

  it("an unknown partner or rebuild is a NotFoundError", async () => {
    for (const call of [
      control.rotatePartnerKey(424242),
      control.listSinkEntries(0),
      control.completeRebuild("no-such-rebuild"),
      control.cloneRebuild("no-such-rebuild", { userId: "u" }),
    ]) {
      const error = await failure(call);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ status: 404, code: "NOT_FOUND" });
    }
  });

  it("a 409 conflict is an ApiError with status 409 and code CONFLICT", async () => {
    const running1 = await submit("https://stall.example.com/");
    const notYet = await failure(control.cloneRebuild(running1.requestId, { userId: "u" }));
    await control.completeRebuild(running1.requestId);
    const twice = await failure(control.completeRebuild(running1.requestId));
    for (const error of [notYet, twice]) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).constructor).toBe(ApiError);
      expect(error).toMatchObject({ status: 409, code: "CONFLICT" });
    }
  });

  it("a refused origin is a PermissionDeniedError; no mock at all a ConnectionError", async () => {
    const error = await failure(control.state({ headers: { origin: "https://evil.example" } }));
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, code: "FORBIDDEN" });

    const port = await freePort();
    const nowhere = new MockControlClient({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 });
    const refused = await failure(nowhere.state());
    expect(refused).toBeInstanceOf(ConnectionError);
    expect((refused as Error).message).toBe(`GET http://127.0.0.1:${port}/__mock/state failed: ECONNREFUSED`);
  });

  it("a baseUrl that is not the mock's origin is a TypeError naming the option", () => {
    for (const baseUrl of [
      "http://127.0.0.1:4010/__mock",
      "http://127.0.0.1:4010/v1",
      "ftp://127.0.0.1",
      "not a url",
      "http://user:pass@127.0.0.1:4010",
    ]) {
      expect(() => new MockControlClient({ baseUrl })).toThrow(TypeError);
      expect(() => new MockControlClient({ baseUrl })).toThrow(/^MockControlClient: baseUrl must/);
    }
    expect(() => new MockControlClient({ baseUrl: "http://127.0.0.1:4010/" })).not.toThrow();
    expect(() => new MockControlClient({ baseUrl: "http://127.0.0.1:4010", timeoutMs: 0 })).toThrow(
      "MockControlClient: timeoutMs must be",
    );
  });
});
