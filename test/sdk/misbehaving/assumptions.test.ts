// A body the contract does not describe names the contract element it trips on: assumed (with the
// pointer of its `x-assumed` element) or confirmed (with the response's pointer), and suggests
// `verify`. `validateResponses: "warn"` logs each such problem once and lets the body through.
import { describe, expect, it, vi } from "vitest";
import { DashboardClient, type Logger, ResponseValidationError } from "../../../src/index.js";
import { assumedDashboard } from "../../contract/assumed-dashboard.js";
import { type Misbehaving, misbehaving, rejection, reply } from "./server.js";

const GUID = "3f9a6c2e-8b1d-4e57-a0c4-7d2e9b5f1a63";
const server = { guid: GUID, product: "plesk", address: "https://srv1.example.com:8443", active: true };
const running = { requestId: "req_1", projectId: "prj_1", status: "running" };

// [call, status, body, jsonPath, assumed, pointer]
const cases: [string, (m: Misbehaving) => PromiseLike<unknown>, number, unknown, string, boolean, string][] =
  [
    [
      "an assumed field missing (TeamGuid.teamGuid)",
      (m) => m.dashboard().accounts.getTeamGuid("a@example.com"),
      200,
      { data: { email: "a@example.com" } },
      "$.data.teamGuid",
      true,
      "/components/schemas/TeamGuid/properties/teamGuid",
    ],
    [
      "an assumed field of another type (Invitation.email)",
      (m) => m.dashboard().accounts.sendInvitations(["a@example.com"]),
      202,
      { data: [{ email: null, status: "sent" }] },
      "$.data[0].email",
      true,
      "/components/schemas/Invitation/properties/email",
    ],
    [
      "an assumed wrapper missing (ApiTokenResponse.data)",
      (m) => m.dashboard().apiTokens.get(7),
      200,
      {},
      "$.data",
      true,
      "/components/schemas/ApiTokenResponse/properties/data",
    ],
    [
      "an item of an assumed list of another type",
      (m) => m.dashboard().servers.connect([{ address: server.address, product: "plesk" }]),
      201,
      { data: ["srv"] },
      "$.data[0]",
      true,
      "/components/schemas/ConnectedServers/properties/data",
    ],
    [
      "a body that is not JSON where an assumed response is documented",
      (m) => m.dashboard().servers.list(),
      200,
      "<html>",
      "$",
      true,
      "/paths/~1si~1servers/get/responses/200",
    ],
    [
      "a confirmed field (Server.guid) inside an assumed response: confirmed, the response named",
      (m) => m.dashboard().servers.list(),
      200,
      { totalCount: 1, data: [{ ...server, guid: 5 }] },
      "$.data[0].guid",
      false,
      "/paths/~1si~1servers/get/responses/200",
    ],
    [
      "a confirmed field of the rebuild answer",
      (m) => m.rebuild().submit({ sourceUrl: "https://www.example.com/" }),
      202,
      { ...running, status: 5 },
      "$.status",
      false,
      "/paths/~1api~1integration~1partners~1hostpanel~1rebuilds/post/responses/202",
    ],
    [
      "an undocumented 2xx is read as the first documented one",
      (m) => m.rebuild().submit({ sourceUrl: "https://www.example.com/" }),
      203,
      {},
      "$.requestId",
      false,
      "/paths/~1api~1integration~1partners~1hostpanel~1rebuilds/post/responses/200",
    ],
  ];

describe("ResponseValidationError names the contract element", () => {
  it.each(cases)("%s", async (_, call, status, body, jsonPath, assumed, pointer) => {
    const m = await misbehaving(reply(status, body));
    const error = (await rejection(call(m))) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ jsonPath, assumed, pointer });
    expect(error.message).toContain(`(${assumed ? "assumed" : "confirmed"} at ${pointer}; `);
    expect(error.message).toContain("npx rebuild-dashboard-kit verify");
  });

  it("every pointer an assumed problem names is one of the contract's assumed elements", async () => {
    for (const [, call, status, body, , assumed, pointer] of cases) {
      const m = await misbehaving(reply(status, body));
      await rejection(call(m));
      if (assumed) expect(assumedDashboard).toContain(pointer);
    }
  });
});

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    warnings,
    debug: vi.fn(),
    info: vi.fn(),
    error: vi.fn(),
    warn: (message) => warnings.push(message),
  };
}

describe('validateResponses: "warn"', () => {
  it("returns the body as received and logs each problem once, whatever the item or the id", async () => {
    const body = {
      data: [
        { email: null, status: "sent" },
        { email: 5, status: "sent" },
      ],
    };
    const m = await misbehaving(reply(202, body));
    const logger = recordingLogger();
    const dashboard = m.dashboard({ validateResponses: "warn", logger });
    await expect(dashboard.accounts.sendInvitations(["a@example.com"])).resolves.toEqual(body);
    await expect(dashboard.accounts.sendInvitations(["b@example.com"])).resolves.toEqual(body);
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toMatch(
      /^POST \/v1\/accounts\/invitations answered 202 with an unexpected body \(\$\.data\[0\]\.email: expected string, got null\) \(assumed at \/components\/schemas\/Invitation\/properties\/email; /,
    );
  });

  it("resolves to the body as received, whole; another problem is logged again, a body that is not JSON comes back as its text", async () => {
    const bodies = [
      { data: { email: "a@example.com" } },
      "<html>",
      { data: { email: "a@example.com" } },
      { data: { email: "a@example.com", teamGuid: GUID } },
    ];
    const m = await misbehaving((_req, res, n) => reply(200, bodies[n - 1])(_req, res, n));
    const logger = recordingLogger();
    const dashboard = m.dashboard({ validateResponses: "warn", logger, maxRetries: 0 });
    await expect(dashboard.accounts.getTeamGuid("a@example.com")).resolves.toEqual(bodies[0]);
    await expect(dashboard.accounts.getTeamGuid("a@example.com")).resolves.toBe("<html>");
    await expect(dashboard.accounts.getTeamGuid("a@example.com")).resolves.toEqual(bodies[2]);
    // A body that holds is unwrapped as usual.
    await expect(dashboard.accounts.getTeamGuid("a@example.com")).resolves.toBe(GUID);
    expect(logger.warnings).toHaveLength(2);
    expect(logger.warnings[1]).toContain("a body that is not valid JSON");
  });

  it("without a logger, the body still comes through; strict (the default) rejects", async () => {
    const body = { data: { email: "a@example.com" } };
    const m = await misbehaving(reply(200, body));
    await expect(
      m.dashboard({ validateResponses: "warn" }).accounts.getTeamGuid("a@example.com"),
    ).resolves.toEqual(body);
    await expect(
      m.dashboard({ validateResponses: "strict" }).accounts.getTeamGuid("a@example.com"),
    ).rejects.toBeInstanceOf(ResponseValidationError);
    await expect(m.dashboard().accounts.getTeamGuid("a@example.com")).rejects.toBeInstanceOf(
      ResponseValidationError,
    );
  });

  it("another value is a TypeError naming the option", () => {
    expect(
      () =>
        new DashboardClient({
          baseUrl: "http://127.0.0.1/v1",
          token: "t",
          validateResponses: "lenient" as "warn",
        }),
    ).toThrow(new TypeError('DashboardClient: validateResponses must be "strict" or "warn"'));
  });
});
