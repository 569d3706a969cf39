import { describe, expect, it } from "vitest";
import { expectCode, q, setup, T0, T0_TEXT } from "./helpers.js";

describe("dashboard authentication", () => {
  it("resolves a bearer secret to its token's user, team and claims", () => {
    const { domain } = setup();
    expect(domain.authenticate("Bearer mock-token-unrestricted")).toEqual({
      tokenId: 1,
      userId: 1,
      teamId: "team-a",
      claims: [],
    });
    expect(domain.authenticate("Bearer mock-token-other-user")).toMatchObject({
      userId: 2,
      teamId: "team-b",
    });
    expect(domain.authenticate("Bearer mock-token-manage").claims).toEqual([
      { name: "manage-api-tokens", readonly: false },
    ]);
  });

  it("takes the scheme in any case", () => {
    const { domain } = setup();
    for (const scheme of ["bearer", "BEARER", "BeArEr"]) {
      expect(domain.authenticate(`${scheme} mock-token-unrestricted`).tokenId).toBe(1);
    }
  });

  it.each([
    ["missing", null],
    ["empty", ""],
    ["scheme only", "Bearer"],
    ["scheme and space", "Bearer "],
    ["other scheme", "Basic mock-token-unrestricted"],
    ["no space", "Bearermock-token-unrestricted"],
    ["two spaces", "Bearer  mock-token-unrestricted"],
    ["two tokens", "Bearer mock-token-unrestricted extra"],
    ["tab separator", "Bearer\tmock-token-unrestricted"],
    ["secret alone", "mock-token-unrestricted"],
    ["unknown secret", "Bearer mock-token-nope"],
    ["secret in other case", "Bearer MOCK-TOKEN-UNRESTRICTED"],
  ])("rejects a %s Authorization header with UNAUTHORIZED", (_, header) => {
    const { domain } = setup();
    expectCode(() => domain.authenticate(header), "UNAUTHORIZED");
  });

  it("rejects a token whose expireAt has passed", () => {
    const { domain } = setup();
    expectCode(() => domain.authenticate("Bearer mock-token-expired"), "UNAUTHORIZED");
  });

  it("rejects a token from the moment expireAt is reached, not before", async () => {
    const { domain, clock } = setup({
      teams: [{ id: "t", guid: "00000000-0000-4000-8000-000000000000" }],
      users: [{ id: 1, email: "u@example.com", team: "t" }],
      servers: [],
      tokens: [
        {
          id: 1,
          userId: 1,
          name: "soon",
          secret: "soon-expiring",
          claims: [],
          createdAt: "2026-01-01T00:00:00+00:00",
          expireAt: "2026-11-22T00:00:10+00:00",
        },
      ],
    });
    await clock.advance(9_999);
    expect(domain.authenticate("Bearer soon-expiring").tokenId).toBe(1);
    await clock.advance(1);
    expectCode(() => domain.authenticate("Bearer soon-expiring"), "UNAUTHORIZED");
  });

  it("sets lastUsedAt to now on every authenticated request, whatever the outcome", async () => {
    const { domain, clock, as } = setup();
    const owner = as("mock-token-unrestricted");
    const readLastUsed = (id: string) => domain.getApiToken(owner, id).data.lastUsedAt;

    await clock.advance(1000);
    // Authenticated, then refused by authorization (403).
    const mcp = as("mock-token-mcp");
    expectCode(() => domain.authorize(mcp, "listServers"), "FORBIDDEN");
    expect(readLastUsed("5")).toBe("2026-11-22T00:00:01+00:00");

    await clock.advance(1000);
    // Authenticated, then refused by validation (400).
    const manage = as("mock-token-manage");
    expectCode(() => domain.createApiToken(manage, { name: "" }), "VALIDATION_FAILED");
    expect(readLastUsed("3")).toBe("2026-11-22T00:00:02+00:00");

    await clock.advance(1000);
    // Authenticated, then an unknown id (404).
    expectCode(() => domain.getApiToken(as("mock-token-manage-readonly"), "999"), "NOT_FOUND");
    expect(readLastUsed("4")).toBe("2026-11-22T00:00:03+00:00");

    // The owner's principal was authenticated once, at T0; reusing it is not a new request.
    expect(readLastUsed("1")).toBe(T0_TEXT);
  });

  it("does not touch lastUsedAt of a token that failed authentication", () => {
    const { domain, as } = setup();
    expectCode(() => domain.authenticate("Bearer mock-token-expired"), "UNAUTHORIZED");
    expect(domain.getApiToken(as("mock-token-unrestricted"), "9").data.lastUsedAt).toBe(
      "2025-12-15T12:00:00+00:00",
    );
  });

  it("leaves lastUsedAt null on tokens never used", () => {
    const { domain, as } = setup();
    expect(domain.getApiToken(as("mock-token-unrestricted"), "3").data.lastUsedAt).toBeNull();
  });

  it("stops a deleted token at once", () => {
    const { domain, as } = setup();
    domain.deleteApiToken(as("mock-token-unrestricted"), "3");
    expectCode(() => domain.authenticate("Bearer mock-token-manage"), "UNAUTHORIZED");
  });

  it("authenticates a newly created token with its secret", () => {
    const { domain, as, clock } = setup();
    const created = domain.createApiToken(as("mock-token-unrestricted"), { name: "new", claims: [] }).data;
    expect(clock.now()).toBe(T0);
    const principal = domain.authenticate(`Bearer ${created.token}`);
    expect(principal).toMatchObject({ tokenId: created.id, userId: 1, teamId: "team-a" });
    expect(domain.listServers(principal, q()).totalCount).toBe(3);
    expect(domain.getApiToken(principal, String(created.id)).data.lastUsedAt).toBe(T0_TEXT);
  });
});
