import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { q, setup } from "./helpers.js";

const names = fc.array(fc.string({ unit: "binary", minLength: 1, maxLength: 12 }), { maxLength: 40 });

function withTokens(tokenNames: readonly string[]) {
  const fixture = setup();
  const caller = fixture.as("mock-token-unrestricted");
  for (const name of tokenNames) {
    // Names that trim to nothing are invalid; keep the rest as stored (trimmed).
    if (name.trim() !== "") fixture.domain.createApiToken(caller, { name, claims: [] });
  }
  return { ...fixture, caller };
}

describe("api token list properties", () => {
  it("filter equals a naive lower-cased substring filter over all of the caller's tokens", () => {
    fc.assert(
      fc.property(names, fc.string({ unit: "binary", minLength: 1, maxLength: 3 }), (tokenNames, filter) => {
        const { domain, caller } = withTokens(tokenNames);
        const all = domain.listApiTokens(caller, q("pageSize=100")).data;
        const expected = all
          .filter((t) => t.name.toLowerCase().includes(filter.toLowerCase()))
          .map((t) => t.id);
        const query = new URLSearchParams({ filter, pageSize: "100" }).toString();
        const result = domain.listApiTokens(caller, query);
        expect(result.data.map((t) => t.id)).toEqual(expected);
        expect(result.totalCount).toBe(expected.length);
      }),
      { numRuns: 60 },
    );
  });

  it("pages concatenate to the whole list, in id order, each page within its size", () => {
    fc.assert(
      fc.property(names, fc.integer({ min: 1, max: 100 }), (tokenNames, pageSize) => {
        const { domain, caller } = withTokens(tokenNames);
        const whole = domain.listApiTokens(caller, q("pageSize=100")).data.map((t) => t.id);
        const pages: number[] = [];
        const pageCount = Math.ceil(whole.length / pageSize);
        for (let page = 1; page <= pageCount + 1; page++) {
          const result = domain.listApiTokens(caller, q(`page=${page}&pageSize=${pageSize}`));
          expect(result.totalCount).toBe(whole.length);
          expect(result.data.length).toBeLessThanOrEqual(pageSize);
          if (page > pageCount) expect(result.data).toEqual([]);
          pages.push(...result.data.map((t) => t.id));
        }
        expect(pages).toEqual(whole);
        expect(whole).toEqual([...whole].sort((a, b) => a - b));
      }),
      { numRuns: 60 },
    );
  });

  it("filtered lists stay right across creations and deletions (against a naive model)", () => {
    const command = fc.oneof(
      fc.record({ kind: fc.constant("create" as const), name: fc.string({ minLength: 1, maxLength: 8 }) }),
      fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant("list" as const), filter: fc.string({ minLength: 1, maxLength: 2 }) }),
    );
    fc.assert(
      fc.property(fc.array(command, { maxLength: 40 }), (commands) => {
        const { domain, caller } = withTokens([]);
        const model = domain
          .listApiTokens(caller, q("pageSize=100"))
          .data.map((t) => ({ id: t.id, name: t.name }));
        for (const step of commands) {
          if (step.kind === "create") {
            if (step.name.trim() === "") continue;
            const created = domain.createApiToken(caller, { name: step.name, claims: [] }).data;
            model.push({ id: created.id, name: created.name });
          } else if (step.kind === "delete") {
            // Never the caller's own token (id 1), so the caller keeps working.
            const candidates = model.filter((t) => t.id !== 1);
            const victim = candidates[step.pick % Math.max(candidates.length, 1)];
            if (!victim) continue;
            domain.deleteApiToken(caller, String(victim.id));
            model.splice(model.indexOf(victim), 1);
          } else {
            const query = new URLSearchParams({ filter: step.filter, pageSize: "100" }).toString();
            const expected = model
              .filter((t) => t.name.toLowerCase().includes(step.filter.toLowerCase()))
              .map((t) => t.id);
            expect(domain.listApiTokens(caller, query).data.map((t) => t.id)).toEqual(expected);
          }
        }
      }),
      { numRuns: 80 },
    );
  });
});
