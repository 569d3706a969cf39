// rebuild-dashboard-kit/zod against the contract (decisions/041). The suite-wide observer runs the
// matching zod schema on every body it checks (test/support/zod-agreement.ts); this file drives the
// mock through every operation of both APIs and both callback outcomes, parses each answer with the
// operation's own zod schema, refuses what the issue names, and replays the fuzz suite's bad bodies.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import { dashboard, rebuild } from "../../src/zod/index.js";
import { badBodies } from "../fuzz/hostile-requests.js";
import { type Answer, dashboardAs, submitRebuild } from "../http/support/client.js";
import { useMswMock } from "../http/support/harness.js";
import { contract, schemaErrors } from "../support/contract-validator.js";
import { PARTNER, SERVER_1, TOKEN } from "../support/default-seed.js";
import { findOperation } from "../support/request-validator.js";
import { takeZodDisagreements, zodComparisons } from "../support/zod-agreement.js";

const { world, call, control } = useMswMock();
const owner = dashboardAs(call, TOKEN.unrestricted);

/** The answer's body once `schema` parsed it; fails the test with zod's issues otherwise. */
function parsed(answer: Answer, schema: ZodType): unknown {
  const result = schema.safeParse(answer.body);
  if (!result.success)
    throw new Error(`${answer.status} ${JSON.stringify(answer.body)}: ${result.error.message}`);
  return result.data;
}

const errors = { dashboard: { 400: dashboard.zValidationError, other: dashboard.zErrorResponse } };

describe("the schemas", () => {
  it.each(["dashboard", "rebuild"] as const)(
    "of %s: one per component, z + its name, no name taken twice",
    (api) => {
      const schemas = api === "dashboard" ? dashboard : rebuild;
      const components = Object.keys((contract(api).doc.components as { schemas: object }).schemas);
      expect(components.filter((name) => !(`z${name}` in schemas))).toEqual([]);
      // A generator names an operation's parts `z<OperationId>Body`, `…Response`: a component of the
      // same name would be renamed with a number (`zConnectServersResponse2`).
      expect(Object.keys(schemas).filter((name) => /\d$/.test(name))).toEqual([]);
    },
  );
});

describe("every answer of the mock parses with the operation's zod schema", () => {
  it("the dashboard API: servers, tokens, invitations and team GUIDs, successes and failures", async () => {
    const before = zodComparisons();
    parsed(await owner("GET", "/si/servers?pageSize=2"), dashboard.zListServersResponse);
    const connected = await owner("POST", "/si/servers", {
      servers: [{ address: "https://srv9.example.com:8443", product: "hostpanel" }],
    });
    expect(connected.status).toBe(201);
    const [server] = (parsed(connected, dashboard.zConnectServersResponse) as { data: { guid: string }[] })
      .data;
    expect((await owner("DELETE", `/si/servers/${server?.guid}`)).status).toBe(204);
    parsed(await owner("DELETE", `/si/servers/${server?.guid}`), errors.dashboard.other);

    const created = await owner("POST", "/dashboard/api-tokens", {
      name: "zod",
      claims: [
        { name: "mcp", readonly: true, attributes: { serverGuid: SERVER_1.toUpperCase(), panelUser: "a" } },
      ],
    });
    expect(created.status).toBe(201);
    const { id } = (parsed(created, dashboard.zCreateApiTokenResponse) as { data: { id: number } }).data;
    parsed(await owner("GET", `/dashboard/api-tokens/${id}`), dashboard.zGetApiTokenResponse);
    parsed(await owner("GET", "/dashboard/api-tokens?filter=zod"), dashboard.zListApiTokensResponse);
    parsed(await owner("GET", "/dashboard/api-tokens"), dashboard.zListApiTokensResponse);
    expect((await owner("DELETE", `/dashboard/api-tokens/${id}`)).status).toBe(204);
    parsed(await owner("GET", `/dashboard/api-tokens/${id}`), errors.dashboard.other);

    parsed(
      await owner("POST", "/accounts/invitations", { emails: ["zod@example.com"] }),
      dashboard.zSendInvitationsResponse,
    );
    parsed(await owner("GET", "/accounts/team-guid?email=zod@example.com"), dashboard.zGetTeamGuidResponse);
    parsed(await owner("GET", "/accounts/team-guid?email=nobody@example.com"), errors.dashboard.other);

    parsed(await owner("GET", "/si/servers?pageSize=500"), errors.dashboard[400]);
    parsed(
      await owner("POST", "/dashboard/api-tokens", { name: "t", claims: [{ name: "mcp" }, { name: "mcp" }] }),
      errors.dashboard[400],
    );
    parsed(await dashboardAs(call, "wrong")("GET", "/si/servers"), errors.dashboard.other);
    parsed(await dashboardAs(call, TOKEN.mcp)("GET", "/si/servers"), errors.dashboard.other);
    // The observer compared each of these bodies (and each request body) with zod as well.
    expect(zodComparisons() - before).toBeGreaterThanOrEqual(20);
  });

  it("the rebuild API and both callbacks, as delivered", async () => {
    const submitted = await submitRebuild(call, { sourceUrl: "https://zod.example.com/", prompt: "p" });
    expect(submitted.status).toBe(202);
    const { requestId } = parsed(submitted, rebuild.zSubmitRebuildResponse) as { requestId: string };
    parsed(await submitRebuild(call, { sourceUrl: "https://zod.example.com/" }), rebuild.zRebuild);
    await world.clock.advance(5000);
    const succeeded = parsed(
      await submitRebuild(call, { sourceUrl: "https://zod.example.com" }),
      rebuild.zRebuild,
    );
    expect(succeeded).toMatchObject({ requestId, status: "success" });

    const failing = await submitRebuild(call, { sourceUrl: "https://zod-failed.example.com/" });
    const failed = (failing.body as { requestId: string }).requestId;
    const completed = await call({ path: `/__mock/rebuilds/${failed}/complete`, json: { status: "failed" } });
    expect(completed.status).toBe(200);
    parsed(await submitRebuild(call, { sourceUrl: "https://zod-failed.example.com/" }), rebuild.zRebuild);

    const sink = await control.sink(PARTNER.ok.id);
    const statuses = sink.map(({ body }) => {
      const callback = rebuild.zRebuildCompletedCallback.parse(body);
      // The webhook's own request schema holds the same callback.
      rebuild.zPartnerProjectRebuildCompletedWebhookRequest.parse({ body });
      return callback.status;
    });
    expect(statuses.sort()).toEqual(["failed", "success"]);

    parsed(await submitRebuild(call, { sourceUrl: "http://10.0.0.1/" }), rebuild.zValidationError);
    parsed(
      await submitRebuild(call, { sourceUrl: "https://x.example.com/" }, { apiKey: "wrong" }),
      rebuild.zErrorResponse,
    );
    parsed(
      await submitRebuild(
        call,
        { sourceUrl: "https://x.example.com/" },
        { partnerId: PARTNER.disabled.id, apiKey: PARTNER.disabled.apiKey },
      ),
      rebuild.zErrorResponse,
    );
    parsed(
      await submitRebuild(
        call,
        { sourceUrl: "https://x.example.com/" },
        { partnerId: PARTNER.noWebhooks.id, apiKey: PARTNER.noWebhooks.apiKey },
      ),
      rebuild.zErrorResponse,
    );
  });
});

describe("what the contract refuses, zod refuses (and Ajv with it)", () => {
  const callback = {
    event_type: "partner_project_rebuild_completed",
    request_id: "r",
    partner_id: 1001,
    project_id: "p",
    source_url: "https://www.example.com/",
  };
  const token = (claims: unknown[]) => ({ name: "t", claims });
  const cases: [string, "dashboard" | "rebuild", string, unknown, unknown][] = [
    [
      "a running rebuild with a previewUrl",
      "rebuild",
      "Rebuild",
      { requestId: "r", projectId: "p", status: "running" },
      { requestId: "r", projectId: "p", status: "running", previewUrl: "https://p.example.com/" },
    ],
    [
      "a success callback with an error_code",
      "rebuild",
      "RebuildCompletedCallback",
      { ...callback, status: "success", preview_url: "https://p.example.com/", extra: "tolerated" },
      { ...callback, status: "success", preview_url: "https://p.example.com/", error_code: "process_failed" },
    ],
    [
      "a token request naming a claim twice",
      "dashboard",
      "CreateApiTokenRequest",
      token([{ name: "mcp" }, { name: "manage-api-tokens" }]),
      token([{ name: "manage-api-tokens" }, { name: "mcp" }, { name: "manage-api-tokens", readonly: true }]),
    ],
    [
      "an mcp claim with panelUser but no serverGuid",
      "dashboard",
      "CreateApiTokenRequest",
      token([{ name: "mcp", attributes: { serverGuid: SERVER_1, panelUser: "admin" } }]),
      token([{ name: "mcp", attributes: { panelUser: "admin" } }]),
    ],
    [
      "a server address with no host",
      "dashboard",
      "ConnectServersRequest",
      { servers: [{ address: "https://srv.example.com", product: "p" }] },
      { servers: [{ address: "http://", product: "p" }] },
    ],
    [
      "a sourceUrl with a space",
      "rebuild",
      "RebuildRequest",
      { sourceUrl: "https://www.example.com/a%20b" },
      { sourceUrl: "https://www.example.com/a b" },
    ],
    [
      "an unknown field",
      "dashboard",
      "CreateApiTokenRequest",
      token([{ name: "mcp" }]),
      { ...token([{ name: "mcp", scope: "all" }]) },
    ],
    [
      "a rebuild 400 whose code is not VALIDATION_FAILED",
      "rebuild",
      "ValidationError",
      {
        message: "m",
        error: { code: "VALIDATION_FAILED" },
        errors: [{ type: "required", path: "", message: "m" }],
      },
      {
        message: "m",
        error: { code: "UNAUTHORIZED" },
        errors: [{ type: "required", path: "", message: "m" }],
      },
    ],
    [
      "a token whose times have no offset, and takes +00:00 and a GUID that is not an RFC UUID",
      "dashboard",
      "ApiToken",
      {
        id: 1,
        name: "n",
        type: "user",
        claims: [],
        createdAt: "2026-11-22T02:39:49+00:00",
        lastUsedAt: null,
        expireAt: null,
      },
      {
        id: 1,
        name: "n",
        type: "user",
        claims: [],
        createdAt: "2026-11-22T02:39:49",
        lastUsedAt: null,
        expireAt: null,
      },
    ],
  ];

  it.each(cases)("%s", (_, api, component, accepted, refused) => {
    const schema = (api === "dashboard" ? dashboard : rebuild)[`z${component}` as never] as ZodType;
    const pointer = `/components/schemas/${component}`;
    expect(schemaErrors(api, pointer, accepted)).toEqual([]);
    expect(schema.safeParse(accepted).success).toBe(true);
    expect(schemaErrors(api, pointer, refused)).not.toEqual([]);
    expect(schema.safeParse(refused).success).toBe(false);
    expect(takeZodDisagreements()).toEqual([]);
  });

  it("a server GUID that is not an RFC-variant UUID is still a GUID", () => {
    const server = {
      guid: "5b1c3f0e-2a4d-0c6b-0e9f-0a1b2c3d4e01",
      product: "p",
      address: "https://a.example.com",
      active: true,
    };
    expect(schemaErrors("dashboard", "/components/schemas/Server", server)).toEqual([]);
    expect(dashboard.zServer.parse(server)).toEqual(server);
  });
});

describe("the fuzz suite's bad bodies", () => {
  it("are refused by the operation's zod body schema exactly when the contract refuses them", () => {
    let refused = 0;
    const samples = fc.sample(badBodies(), { numRuns: 1500, seed: 20_261_128 });
    for (const request of samples) {
      const pathname = request.path.split("?")[0] ?? "";
      const [api, below] = pathname.startsWith("/v1/")
        ? (["dashboard", pathname.slice(3)] as const)
        : (["rebuild", pathname] as const);
      const found = findOperation(api, request.method, below);
      const operationId = String(found?.operation.operationId ?? "");
      let value: unknown;
      try {
        value = JSON.parse(
          new TextDecoder("utf-8", { fatal: true }).decode(request.body ?? new Uint8Array()),
        );
      } catch {
        continue; // Not JSON: no schema ever sees it.
      }
      const bodySchema = (api === "dashboard" ? dashboard : rebuild)[
        `z${operationId[0]?.toUpperCase()}${operationId.slice(1)}Body` as never
      ] as ZodType | undefined;
      if (!bodySchema) throw new Error(`no zod body schema for ${api} ${operationId}`);
      const pointer = `/paths/${found?.template.replaceAll("/", "~1")}/${request.method.toLowerCase()}/requestBody/content/application~1json/schema`;
      const contractRefuses = schemaErrors(api, pointer, value).length > 0;
      expect([request.kind, bodySchema.safeParse(value).success]).toEqual([request.kind, !contractRefuses]);
      if (contractRefuses) refused++;
    }
    expect(takeZodDisagreements()).toEqual([]);
    expect(refused).toBeGreaterThan(500);
  });
});
