// The assumption catalogue is generated from the contract's `x-assumed` marks; the provenance lists
// of test/contract/ are reviewed by hand against the sources. Both must name the same elements.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { collectAssumed } from "../../scripts/docs-assumed.js";
import { assumedElements } from "../../src/generated/assumptions.js";
import { assumedDashboard } from "../contract/assumed-dashboard.js";
import { assumedRebuild } from "../contract/assumed-rebuild.js";

describe("the assumption catalogue", () => {
  it("lists exactly the provenance lists' assumed pointers, once each", () => {
    const of = (document: string) =>
      assumedElements.filter((element) => element.document === document).map((element) => element.pointer);
    expect([...of("dashboard")].sort()).toEqual([...assumedDashboard].sort());
    expect([...of("rebuild")].sort()).toEqual([...assumedRebuild].sort());
    expect(new Set(assumedElements.map((e) => `${e.document} ${e.pointer}`)).size).toBe(
      assumedElements.length,
    );
  });

  it("labels every element as the docs' assumptions page does", () => {
    for (const document of ["dashboard", "rebuild"]) {
      const docs = collectAssumed(parse(readFileSync(`openapi/${document}.yaml`, "utf8")));
      expect(assumedElements.filter((e) => e.document === document).map((e) => [e.pointer, e.label])).toEqual(
        docs.map((e) => [e.pointer, e.label]),
      );
    }
  });
});
