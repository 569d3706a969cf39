// The documented rules (test/support/documented-rules.ts, decisions/021) are the only reasons the mock
// may give for a `400` to a request the contract's schemas accept. Each must quote
// contract-decisions.md verbatim and recognise the field error the mock really answers with.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type Answer, submitRebuild } from "../http/support/client.js";
import { useMswMock } from "../http/support/harness.js";
import { TOKEN } from "../support/default-seed.js";
import { DOCUMENTED_RULES, documentedRuleOf } from "../support/documented-rules.js";
import { requestViolations } from "../support/request-validator.js";

const { call } = useMswMock();
const DECISIONS = fileURLToPath(new URL("../../sources/contract-decisions.md", import.meta.url));

/** A request each rule rejects although the schemas accept it, and the part of the contract it goes to. */
const triggers: Record<
  string,
  { send: () => Promise<Answer>; api: "dashboard" | "rebuild"; path: string; body: unknown }
> = {
  "rebuild.sourceUrl.public-host": {
    api: "rebuild",
    path: "/api/integration/partners/hostpanel/rebuilds",
    body: { sourceUrl: "http://10.0.0.1/" },
    send: () => submitRebuild(call, { sourceUrl: "http://10.0.0.1/" }),
  },
};

describe("the documented rules the schemas cannot state", () => {
  it("have unique ids and a trigger each", () => {
    const ids = DOCUMENTED_RULES.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.keys(triggers).sort()).toEqual([...ids].sort());
  });

  it("quote contract-decisions.md verbatim", () => {
    const text = readFileSync(DECISIONS, "utf8").replace(/\s+/g, " ");
    expect(DOCUMENTED_RULES.filter((rule) => !text.includes(rule.decision))).toEqual([]);
  });

  it.each(DOCUMENTED_RULES)("$id: a schema-valid request gets a 400 naming the rule", async (rule) => {
    const trigger = triggers[rule.id];
    if (!trigger) throw new Error(`no trigger for ${rule.id}`);
    const body = new TextEncoder().encode(JSON.stringify(trigger.body));
    const headers = new Headers({
      "content-type": "application/json",
      authorization: `Bearer ${TOKEN.unrestricted}`,
      "x-partner-id": "1001",
      "x-api-key": "k",
    });
    const request = { method: "POST", path: trigger.path, query: new URLSearchParams(), headers, body };
    expect(requestViolations(trigger.api, request)).toEqual([]);
    const answer = (await trigger.send()) as Answer<{
      errors: { type: string; path: string; message: string }[];
    }>;
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((error) => documentedRuleOf(rule.api, error)?.id)).toEqual([rule.id]);
  });

  it("leave a claim name given twice to the schema, which states it (decisions/041)", () => {
    const body = { name: "twice", claims: [{ name: "mcp" }, { name: "mcp", readonly: true }] };
    const request = {
      method: "POST",
      path: "/dashboard/api-tokens",
      query: new URLSearchParams(),
      headers: new Headers({
        "content-type": "application/json",
        authorization: `Bearer ${TOKEN.unrestricted}`,
      }),
      body: new TextEncoder().encode(JSON.stringify(body)),
    };
    expect(requestViolations("dashboard", request)).not.toEqual([]);
    expect(DOCUMENTED_RULES.map((rule) => rule.id)).toEqual(["rebuild.sourceUrl.public-host"]);
  });
});
