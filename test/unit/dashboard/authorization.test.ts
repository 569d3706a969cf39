import { describe, expect, it } from "vitest";
import type { DashboardOperation } from "../../../mocks/domain/dashboard/index.js";
import { expectCode, SERVER_1, setup } from "./helpers.js";

const ALL: DashboardOperation[] = [
  "listServers",
  "connectServers",
  "deleteServer",
  "listApiTokens",
  "createApiToken",
  "getApiToken",
  "deleteApiToken",
  "sendInvitations",
  "getTeamGuid",
];
const TOKEN_OPS: DashboardOperation[] = ["listApiTokens", "createApiToken", "getApiToken", "deleteApiToken"];
const OTHER_OPS = ALL.filter((op) => !TOKEN_OPS.includes(op));

describe("dashboard authorization (claims rules 1-4)", () => {
  it("rule 1: an unrestricted token may call every operation", () => {
    const { domain, as } = setup();
    const principal = as("mock-token-unrestricted");
    for (const op of ALL) expect(() => domain.authorize(principal, op)).not.toThrow();
  });

  it("rule 2: the token endpoints need manage-api-tokens", () => {
    const { domain, as } = setup();
    const manage = as("mock-token-manage");
    for (const op of TOKEN_OPS) expect(() => domain.authorize(manage, op)).not.toThrow();
    const mcp = as("mock-token-mcp");
    for (const op of TOKEN_OPS) {
      expect(expectCode(() => domain.authorize(mcp, op), "FORBIDDEN").message).toContain("manage-api-tokens");
    }
  });

  it("rule 2: server inventory and accounts need an unrestricted token", () => {
    const { domain, as } = setup();
    for (const secret of ["mock-token-manage", "mock-token-mcp", "mock-token-manage-mcp"]) {
      const principal = as(secret);
      for (const op of OTHER_OPS) {
        expect(expectCode(() => domain.authorize(principal, op), "FORBIDDEN").message).toContain(
          "unrestricted",
        );
      }
    }
  });

  it("an mcp-only token may call nothing in this API", () => {
    const { domain, as } = setup();
    for (const secret of ["mock-token-mcp", "mock-token-mcp-readonly"]) {
      const principal = as(secret);
      for (const op of ALL) expectCode(() => domain.authorize(principal, op), "FORBIDDEN");
    }
  });

  it("rule 3: a read-only manage-api-tokens claim may list and read, not create or delete", () => {
    const { domain, as } = setup();
    const readonly = as("mock-token-manage-readonly");
    domain.authorize(readonly, "listApiTokens");
    domain.authorize(readonly, "getApiToken");
    expectCode(() => domain.authorize(readonly, "createApiToken"), "FORBIDDEN");
    expectCode(() => domain.authorize(readonly, "deleteApiToken"), "FORBIDDEN");
  });

  it("rule 4: a caller holding a read-only mcp claim cannot create a token", () => {
    const { domain, as } = setup();
    const caller = as("mock-token-manage-mcp-readonly");
    domain.authorize(caller, "listApiTokens");
    domain.authorize(caller, "deleteApiToken");
    const error = expectCode(() => domain.authorize(caller, "createApiToken"), "FORBIDDEN");
    expect(error.message).toContain("read-only mcp");
  });

  it("operations enforce authorization themselves, before validating input", () => {
    const { domain, as } = setup();
    const readonly = as("mock-token-manage-readonly");
    expectCode(() => domain.createApiToken(readonly, "not even an object"), "FORBIDDEN");
    expectCode(() => domain.deleteApiToken(readonly, "1"), "FORBIDDEN");
    const manage = as("mock-token-manage");
    expectCode(() => domain.connectServers(manage, undefined), "FORBIDDEN");
    expectCode(() => domain.listServers(manage, "page=x"), "FORBIDDEN");
    expectCode(() => domain.sendInvitations(manage, {}), "FORBIDDEN");
  });
});

describe("claim breadth (rule 5), checked after validation", () => {
  const mcp = (attributes: Record<string, string> = {}, readonly = false) => ({
    name: "mcp",
    readonly,
    attributes,
  });
  const OTHER_SERVER = "11111111-2222-4333-8444-555555555555";

  it("an unrestricted caller may create anything", () => {
    const { domain, as } = setup();
    const caller = as("mock-token-unrestricted");
    for (const claims of [[], [mcp()], [{ name: "manage-api-tokens" }, mcp({ serverGuid: OTHER_SERVER })]]) {
      expect(domain.createApiToken(caller, { name: "t", claims }).data.claims).toHaveLength(claims.length);
    }
  });

  it("a caller with claims cannot create an unrestricted token", () => {
    const { domain, as } = setup();
    const error = expectCode(
      () => domain.createApiToken(as("mock-token-manage"), { name: "t", claims: [] }),
      "FORBIDDEN",
    );
    expect(error.message).toContain("unrestricted");
  });

  it("manage-api-tokens is covered by manage-api-tokens, not by mcp", () => {
    const { domain, as } = setup();
    const manage = as("mock-token-manage");
    domain.createApiToken(manage, { name: "t", claims: [{ name: "manage-api-tokens" }] });
    domain.createApiToken(manage, { name: "t", claims: [{ name: "manage-api-tokens", readonly: true }] });
    expectCode(() => domain.createApiToken(manage, { name: "t", claims: [mcp()] }), "FORBIDDEN");
  });

  it("mcp is covered by an mcp claim with absent or equal serverGuid and panelUser", () => {
    const { domain, as } = setup();
    // Holds manage-api-tokens and mcp scoped to SERVER_1 with any panel user.
    const caller = as("mock-token-manage-mcp");
    const create = (claim: object) => () => domain.createApiToken(caller, { name: "t", claims: [claim] });
    expect(create(mcp({ serverGuid: SERVER_1 }))().data.claims).toEqual([
      { name: "mcp", readonly: false, attributes: { serverGuid: SERVER_1 } },
    ]);
    create(mcp({ serverGuid: SERVER_1.toUpperCase(), panelUser: "anyone" }))();
    create(mcp({ serverGuid: SERVER_1 }, true))();
    expectCode(create(mcp()), "FORBIDDEN");
    expectCode(create(mcp({ serverGuid: OTHER_SERVER })), "FORBIDDEN");
  });

  it("a panelUser-scoped mcp claim covers only that panel user on that server", () => {
    const { domain, as } = setup({
      teams: [{ id: "t", guid: "00000000-0000-4000-8000-000000000000" }],
      users: [{ id: 1, email: "u@example.com", team: "t" }],
      servers: [],
      tokens: [
        {
          id: 1,
          userId: 1,
          name: "scoped",
          secret: "scoped",
          claims: [
            { name: "manage-api-tokens" },
            { name: "mcp", attributes: { serverGuid: SERVER_1, panelUser: "admin" } },
          ],
          createdAt: "2026-01-01T00:00:00+00:00",
        },
      ],
    });
    const caller = as("scoped");
    const create = (claim: object) => () => domain.createApiToken(caller, { name: "t", claims: [claim] });
    create(mcp({ serverGuid: SERVER_1, panelUser: "admin" }))();
    expectCode(create(mcp({ serverGuid: SERVER_1, panelUser: "root" })), "FORBIDDEN");
    expectCode(create(mcp({ serverGuid: SERVER_1 })), "FORBIDDEN");
    expectCode(create(mcp()), "FORBIDDEN");
  });

  it("validation (400) answers before breadth (403)", () => {
    const { domain, as } = setup();
    expectCode(
      () => domain.createApiToken(as("mock-token-manage"), { name: "", claims: [mcp()] }),
      "VALIDATION_FAILED",
    );
  });

  it("a refused creation creates nothing", () => {
    const { domain, as } = setup();
    const before = domain.state().tokens.length;
    expectCode(() => domain.createApiToken(as("mock-token-manage"), { name: "t", claims: [] }), "FORBIDDEN");
    expect(domain.state().tokens).toHaveLength(before);
  });
});
