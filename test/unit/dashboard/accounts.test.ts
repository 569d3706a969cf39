import { describe, expect, it } from "vitest";
import { expectCode, fieldErrors, q, setup, TEAM_A_GUID, TEAM_B_GUID } from "./helpers.js";

describe("accounts", () => {
  it("sends invitations, answering each as sent and recording it in the outbox", async () => {
    const { domain, as, clock } = setup();
    await clock.advance(5_000);
    const result = domain.sendInvitations(as("mock-token-unrestricted"), {
      emails: ["new@example.com", "Second@Example.org"],
    });
    expect(result).toEqual({
      data: [
        { email: "new@example.com", status: "sent" },
        { email: "Second@Example.org", status: "sent" },
      ],
    });
    expect(domain.state().invitations).toEqual([
      { email: "new@example.com", team: "team-a", invitedByUserId: 1, sentAt: "2026-11-22T00:00:05+00:00" },
      {
        email: "Second@Example.org",
        team: "team-a",
        invitedByUserId: 1,
        sentAt: "2026-11-22T00:00:05+00:00",
      },
    ]);
  });

  it("validates the invitation body", () => {
    const { domain, as } = setup();
    const caller = as("mock-token-unrestricted");
    const errorsOf = (body: unknown) => fieldErrors(() => domain.sendInvitations(caller, body));
    expect(errorsOf(undefined)).toEqual([["required", ""]]);
    expect(errorsOf("x")).toEqual([["invalid_type", ""]]);
    expect(errorsOf({})).toEqual([["required", "emails"]]);
    expect(errorsOf({ emails: "a@example.com" })).toEqual([["invalid_type", "emails"]]);
    expect(errorsOf({ emails: [] })).toEqual([["too_small", "emails"]]);
    const many = Array.from({ length: 51 }, (_, i) => `u${i}@example.com`);
    expect(errorsOf({ emails: many })).toEqual([["too_big", "emails"]]);
    expect(domain.sendInvitations(caller, { emails: many.slice(1) }).data).toHaveLength(50);
    expect(errorsOf({ emails: ["ok@example.com", 3, "nope", " a@example.com"], cc: [] })).toEqual([
      ["unknown_field", "cc"],
      ["invalid_type", "emails.1"],
      ["invalid_format", "emails.2"],
      ["invalid_format", "emails.3"],
    ]);
  });

  it.each([
    ["a@b", true],
    ["first.last+tag@sub.example.co.uk", true],
    ["o'brien!#$%&*/=?^_`{|}~@example.com", true],
    ["a@localhost", true],
    ["a@example.com.", false],
    ["a@-example.com", false],
    ["a@example-.com", false],
    ["a@exa_mple.com", false],
    ["a b@example.com", false],
    ['"quoted"@example.com', false],
    ["@example.com", false],
    ["a@", false],
    ["a@@example.com", false],
    ["ü@example.com", false],
    [`a@${"x".repeat(64)}.com`, false],
    [`a@${"x".repeat(63)}.com`, true],
  ])("accepts %s as an HTML type=email input would: %s", (email, valid) => {
    const { domain, as } = setup();
    const send = () => domain.sendInvitations(as("mock-token-unrestricted"), { emails: [email] });
    if (valid) expect(send().data).toEqual([{ email, status: "sent" }]);
    else expect(fieldErrors(send)).toEqual([["invalid_format", "emails.0"]]);
  });

  it("resolves users' own emails to their team, case-insensitively", () => {
    const { domain, as } = setup();
    const caller = as("mock-token-unrestricted");
    expect(domain.getTeamGuid(caller, q("email=owner@example.com"))).toEqual({
      data: { email: "owner@example.com", teamGuid: TEAM_A_GUID },
    });
    expect(domain.getTeamGuid(caller, q("email=OTHER@Example.COM")).data).toEqual({
      email: "OTHER@Example.COM",
      teamGuid: TEAM_B_GUID,
    });
  });

  it("resolves invited emails to the inviting team, the latest invitation winning", () => {
    const { domain, as } = setup();
    const a = as("mock-token-unrestricted");
    const b = as("mock-token-other-user");
    expectCode(() => domain.getTeamGuid(a, q("email=guest@example.com")), "NOT_FOUND");
    domain.sendInvitations(a, { emails: ["guest@example.com"] });
    expect(domain.getTeamGuid(b, q("email=guest@example.com")).data.teamGuid).toBe(TEAM_A_GUID);
    domain.sendInvitations(b, { emails: ["GUEST@example.com"] });
    expect(domain.getTeamGuid(a, q("email=Guest@Example.com")).data.teamGuid).toBe(TEAM_B_GUID);
    domain.sendInvitations(a, { emails: ["guest@example.com"] });
    expect(domain.getTeamGuid(a, q("email=guest@example.com")).data.teamGuid).toBe(TEAM_A_GUID);
  });

  it("a user's own email always wins over invitations", () => {
    const { domain, as } = setup();
    const b = as("mock-token-other-user");
    domain.sendInvitations(b, { emails: ["Owner@Example.com"] });
    expect(domain.getTeamGuid(b, q("email=owner@example.com")).data.teamGuid).toBe(TEAM_A_GUID);
  });

  it("validates the email query parameter", () => {
    const { domain, as } = setup();
    const caller = as("mock-token-unrestricted");
    const errorsOf = (query: string) => fieldErrors(() => domain.getTeamGuid(caller, q(query)));
    expect(errorsOf("")).toEqual([["required", "email"]]);
    expect(errorsOf("mail=owner@example.com")).toEqual([["required", "email"]]);
    expect(errorsOf("email=")).toEqual([["too_small", "email"]]);
    expect(errorsOf("email=nope")).toEqual([["invalid_format", "email"]]);
    expect(errorsOf("email=owner@example.com&email=owner@example.com")).toEqual([["duplicate", "email"]]);
    expectCode(() => domain.getTeamGuid(caller, q("email=nobody@example.com")), "NOT_FOUND");
    expect(domain.getTeamGuid(caller, q("email=owner@example.com&page=x")).data.teamGuid).toBe(TEAM_A_GUID);
  });

  it("a rejected invitation request records nothing", () => {
    const { domain, as } = setup();
    expectCode(
      () => domain.sendInvitations(as("mock-token-unrestricted"), { emails: ["ok@example.com", "bad"] }),
      "VALIDATION_FAILED",
    );
    expect(domain.state().invitations).toEqual([]);
  });
});
