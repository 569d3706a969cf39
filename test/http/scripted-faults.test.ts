// Scripted faults (decisions/044): `PUT /__mock/faults` with `rules`, each applied to the next
// `times` calls of its operation only, in order, then gone; a status the operation documents,
// answered with its documented body; the same in-process and over HTTP.
import { describe, expect, it } from "vitest";
import { documentedFailures } from "../../src/generated/documented-failures.js";
import { TOKEN } from "../support/default-seed.js";
import { dashboardAs, submitRebuild } from "./support/client.js";
import { expectError, expectFieldErrors } from "./support/expectations.js";
import { useMswMock, useNodeMock } from "./support/harness.js";

const { world, call } = useMswMock({ onUnhandledRequest: "bypass" });
const node = useNodeMock();

const putFaults = (body: unknown) => call({ method: "PUT", path: "/__mock/faults", json: body });
const submit = () => submitRebuild(call, { sourceUrl: "https://www.example.com/" });
const servers = () => dashboardAs(call, TOKEN.unrestricted)("GET", "/si/servers");

describe("a scripted fault rule", () => {
  it("makes the next submission 503 and the one after 202; other operations untouched", async () => {
    const set = await putFaults({ rules: [{ operationId: "submitRebuild", status: 503, times: 1 }] });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      latencyMs: 0,
      errorRate: 0,
      resetRate: 0,
      rules: [{ operationId: "submitRebuild", status: 503, times: 1 }],
    });
    expect((await servers()).status).toBe(200);
    const failed = await submit();
    expectError(failed, 503, "INTERNAL");
    expect(failed.headers.get("retry-after")).toBe("0");
    expect(world.state().rebuild.rebuilds).toEqual([]);
    expect((await call({ path: "/__mock/faults" })).body).toMatchObject({ rules: [] });
    expect((await submit()).status).toBe(202);
  });

  it("applies rules in order, counting down `times`; GET shows what remains", async () => {
    world.setFaults({
      rules: [
        { operationId: "submitRebuild", status: 429, times: 2 },
        { operationId: "submitRebuild", status: 422 },
        { operationId: "listServers", status: 403 },
      ],
    });
    const first = await submit();
    expectError(first, 429, "RATE_LIMIT_EXCEEDED");
    // The documented body and required headers, as the contract's example gives them.
    expect(first.body).toEqual(documentedFailures.submitRebuild?.statuses["429"]?.body);
    expect(first.headers.get("retry-after")).not.toBeNull();
    expect(world.getFaults().rules).toEqual([
      { operationId: "submitRebuild", status: 429, times: 1 },
      { operationId: "submitRebuild", status: 422, times: 1 },
      { operationId: "listServers", status: 403, times: 1 },
    ]);
    expectError(await submit(), 429, "RATE_LIMIT_EXCEEDED");
    expectError(await submit(), 422, "WEBHOOKS_NOT_CONFIGURED");
    expect((await submit()).status).toBe(202);
    expectError(await servers(), 403, "FORBIDDEN");
    expect((await servers()).status).toBe(200);
    expect(world.getFaults().rules).toEqual([]);
  });

  it("a latency rule answers normally after the wait; a rule outranks the rates", async () => {
    world.setFaults({ errorRate: 1, rules: [{ operationId: "listServers", latencyMs: 1 }] });
    expect((await servers()).status).toBe(200);
    expectError(await servers(), 503, "INTERNAL");
  });

  it("a reset rule drops the connection once, after the request ran", async () => {
    const origin = node.origin;
    await node.call({
      method: "PUT",
      path: "/__mock/faults",
      json: { rules: [{ operationId: "listServers", reset: true }] },
    });
    const headers = { authorization: `Bearer ${TOKEN.unrestricted}` };
    await expect(fetch(`${origin}/v1/si/servers`, { headers })).rejects.toThrow();
    expect((await fetch(`${origin}/v1/si/servers`, { headers })).status).toBe(200);
  });

  it("`rules: []` clears them; reset and restore clear them too, and snapshots leave them out", async () => {
    const rules = [{ operationId: "getApiToken" as const, status: 404 }];
    world.setFaults({ rules });
    expect(world.setFaults({ rules: [] }).rules).toEqual([]);
    world.setFaults({ rules });
    const snapshot = world.snapshot();
    expect(JSON.stringify(snapshot)).not.toContain("getApiToken");
    world.reset();
    expect(world.getFaults().rules).toEqual([]);
    world.setFaults({ rules });
    world.restore(snapshot);
    expect(world.getFaults().rules).toEqual([]);
  });
});

describe("a rule the operation does not document is refused with 400, and nothing changes", () => {
  it.each<[string, unknown, string]>([
    ["a status it does not list", { operationId: "submitRebuild", status: 404 }, "rules.0.status"],
    ["a success status", { operationId: "submitRebuild", status: 200 }, "rules.0.status"],
    ["no status, reset or latency", { operationId: "submitRebuild" }, "rules.0.status"],
    ["both status and reset", { operationId: "submitRebuild", status: 503, reset: true }, "rules.0.reset"],
    ["an unknown operation", { operationId: "submitRebuilds", status: 503 }, "rules.0.operationId"],
    ["times 0", { operationId: "submitRebuild", status: 503, times: 0 }, "rules.0.times"],
  ])("%s", async (_, rule, path) => {
    const answer = await putFaults({ latencyMs: 5, rules: [rule] });
    expectFieldErrors(answer, [{ type: expect.any(String) as never, path }]);
    expect(world.getFaults()).toEqual({ latencyMs: 0, errorRate: 0, resetRate: 0, rules: [] });
  });

  it("names the statuses the operation documents", async () => {
    const answer = await putFaults({ rules: [{ operationId: "deleteServer", status: 400 }] });
    expect(JSON.stringify(answer.body)).toContain(
      "must be a status deleteServer documents: 401, 403, 404, 500, 503",
    );
  });
});
