import { describe, expect, it } from "vitest";
import { expectCode, fieldErrors, SERVER_1, setup } from "./helpers.js";

describe("createApiToken body validation", () => {
  const { domain, as } = setup();
  const caller = as("mock-token-unrestricted");
  const errorsOf = (body: unknown) => fieldErrors(() => domain.createApiToken(caller, body));
  const claimErrors = (...claims: unknown[]) => errorsOf({ name: "t", claims });

  it.each([
    ["missing (empty body)", undefined, "required"],
    ["null", null, "invalid_type"],
    ["an array", [], "invalid_type"],
    ["a string", "name", "invalid_type"],
    ["a number", 1, "invalid_type"],
  ])("a body that is %s gets one error at the root", (_, body, type) => {
    expect(errorsOf(body)).toEqual([[type, ""]]);
  });

  it("requires name and claims, and lists every error at once", () => {
    expect(errorsOf({})).toEqual([
      ["required", "name"],
      ["required", "claims"],
    ]);
  });

  it("rejects unknown fields at every level", () => {
    expect(
      errorsOf({
        name: "t",
        claims: [{ name: "mcp", extra: 1, attributes: { serverGuid: SERVER_1, other: "x" } }],
        expireAt: null,
      }),
    ).toEqual([
      ["unknown_field", "expireAt"],
      ["unknown_field", "claims.0.extra"],
      ["unknown_field", "claims.0.attributes.other"],
    ]);
  });

  it("does not mistake inherited properties for fields", () => {
    expect(errorsOf({ constructor: "x", name: "t", claims: [] })).toEqual([["unknown_field", "constructor"]]);
    expect(errorsOf(JSON.parse('{"__proto__": {"name": "t"}, "claims": []}'))).toEqual([
      ["required", "name"],
      ["unknown_field", "__proto__"],
    ]);
  });

  it("checks name's type and its length in code points after trimming (the contract's pattern)", () => {
    expect(errorsOf({ name: 5, claims: [] })).toEqual([["invalid_type", "name"]]);
    expect(errorsOf({ name: null, claims: [] })).toEqual([["invalid_type", "name"]]);
    expect(errorsOf({ name: "", claims: [] })).toEqual([["too_small", "name"]]);
    expect(errorsOf({ name: " \t\n ", claims: [] })).toEqual([["invalid_format", "name"]]);
    expect(errorsOf({ name: "x".repeat(101), claims: [] })).toEqual([["invalid_format", "name"]]);
    // 100 astral characters are 200 UTF-16 units but 100 code points.
    const astral = "😀".repeat(100);
    expect(domain.createApiToken(caller, { name: ` ${astral} `, claims: [] }).data.name).toBe(astral);
    expect(errorsOf({ name: `${astral}😀`, claims: [] })).toEqual([["invalid_format", "name"]]);
    expect(domain.createApiToken(caller, { name: "  padded  ", claims: [] }).data.name).toBe("padded");
  });

  it("checks claims is an array of objects", () => {
    expect(errorsOf({ name: "t", claims: {} })).toEqual([["invalid_type", "claims"]]);
    expect(errorsOf({ name: "t", claims: null })).toEqual([["invalid_type", "claims"]]);
    expect(claimErrors("mcp", null, [])).toEqual([
      ["invalid_type", "claims.0"],
      ["invalid_type", "claims.1"],
      ["invalid_type", "claims.2"],
    ]);
  });

  it("checks a claim's name and readonly", () => {
    expect(claimErrors({})).toEqual([["required", "claims.0.name"]]);
    expect(claimErrors({ name: 1 })).toEqual([["invalid_type", "claims.0.name"]]);
    expect(claimErrors({ name: "admin" })).toEqual([["invalid_value", "claims.0.name"]]);
    expect(claimErrors({ name: "MCP" })).toEqual([["invalid_value", "claims.0.name"]]);
    expect(claimErrors({ name: "mcp", readonly: "true" })).toEqual([["invalid_type", "claims.0.readonly"]]);
    expect(claimErrors({ name: "mcp", readonly: null })).toEqual([["invalid_type", "claims.0.readonly"]]);
  });

  it("rule 6: the same claim name twice is a duplicate at the later index", () => {
    expect(
      claimErrors({ name: "mcp" }, { name: "manage-api-tokens" }, { name: "mcp", readonly: true }),
    ).toEqual([["duplicate", "claims.2"]]);
    expect(claimErrors({ name: "mcp" }, { name: "mcp" }, { name: "mcp" })).toEqual([
      ["duplicate", "claims.1"],
      ["duplicate", "claims.2"],
    ]);
  });

  it("rule 6: mcp attributes are optional, serverGuid a GUID, panelUser a non-empty string", () => {
    expect(claimErrors({ name: "mcp", attributes: null })).toEqual([["invalid_type", "claims.0.attributes"]]);
    expect(claimErrors({ name: "mcp", attributes: [] })).toEqual([["invalid_type", "claims.0.attributes"]]);
    expect(claimErrors({ name: "mcp", attributes: { serverGuid: 1 } })).toEqual([
      ["invalid_type", "claims.0.attributes.serverGuid"],
    ]);
    for (const bad of ["", "not-a-guid", `{${SERVER_1}}`, `${SERVER_1} `, SERVER_1.replaceAll("-", "")]) {
      expect(claimErrors({ name: "mcp", attributes: { serverGuid: bad } })).toEqual([
        ["invalid_format", "claims.0.attributes.serverGuid"],
      ]);
    }
    expect(claimErrors({ name: "mcp", attributes: { serverGuid: SERVER_1, panelUser: "" } })).toEqual([
      ["too_small", "claims.0.attributes.panelUser"],
    ]);
    expect(claimErrors({ name: "mcp", attributes: { serverGuid: SERVER_1, panelUser: 7 } })).toEqual([
      ["invalid_type", "claims.0.attributes.panelUser"],
    ]);
    // The contract sets no upper bound (the body's 1 MiB does).
    const long = domain.createApiToken(caller, {
      name: "t",
      claims: [{ name: "mcp", attributes: { serverGuid: SERVER_1, panelUser: "u".repeat(10_000) } }],
    });
    expect(long.data.claims).toHaveLength(1);
  });

  it("rule 6: panelUser without serverGuid is `required` at serverGuid", () => {
    expect(claimErrors({ name: "mcp", attributes: { panelUser: "admin" } })).toEqual([
      ["required", "claims.0.attributes.serverGuid"],
    ]);
  });

  it("rule 6: manage-api-tokens takes attributes only as absent or {}", () => {
    expect(claimErrors({ name: "manage-api-tokens", attributes: { serverGuid: SERVER_1 } })).toEqual([
      ["unknown_field", "claims.0.attributes.serverGuid"],
    ]);
    expect(claimErrors({ name: "manage-api-tokens", attributes: "x" })).toEqual([
      ["invalid_type", "claims.0.attributes"],
    ]);
    const created = domain.createApiToken(caller, {
      name: "t",
      claims: [{ name: "manage-api-tokens", attributes: {} }],
    });
    expect(created.data.claims).toEqual([{ name: "manage-api-tokens", readonly: false }]);
  });

  it("normalises claims in the response: readonly defaults to false, mcp always has attributes, GUID lower-cased", () => {
    const created = domain.createApiToken(caller, {
      name: "t",
      claims: [
        { name: "mcp", attributes: { serverGuid: SERVER_1.toUpperCase(), panelUser: "Admin" } },
        { name: "manage-api-tokens", readonly: true },
      ],
    }).data;
    expect(created.claims).toEqual([
      { name: "mcp", readonly: false, attributes: { serverGuid: SERVER_1, panelUser: "Admin" } },
      { name: "manage-api-tokens", readonly: true },
    ]);
    expect(domain.createApiToken(caller, { name: "t", claims: [{ name: "mcp" }] }).data.claims).toEqual([
      { name: "mcp", readonly: false, attributes: {} },
    ]);
  });

  it("collects every schema error at once; the duplicate rule runs once the schema holds", () => {
    const claims = [{ name: "mcp", attributes: { panelUser: "" } }, { name: "nope" }, { name: "mcp" }];
    expect(errorsOf({ name: "", claims })).toEqual([
      ["too_small", "name"],
      ["too_small", "claims.0.attributes.panelUser"],
      ["required", "claims.0.attributes.serverGuid"],
      ["invalid_value", "claims.1.name"],
    ]);
    expect(errorsOf({ name: "t", claims: [claims[2], { name: "manage-api-tokens" }, claims[2]] })).toEqual([
      ["duplicate", "claims.2"],
    ]);
  });

  it("gives each field error a message", () => {
    const error = expectCode(
      () => domain.createApiToken(caller, { name: 1, extra: true }),
      "VALIDATION_FAILED",
    );
    expect(error.details.fieldErrors).toHaveLength(3);
    for (const fieldError of error.details.fieldErrors ?? []) expect(fieldError.message).not.toBe("");
  });
});
