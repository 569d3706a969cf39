// The assumption catalogue is generated from the contract's `x-assumed` marks; the provenance lists
// of test/contract/ are reviewed by hand against the sources. Both must name the same elements.
import { describe, expect, it } from "vitest";
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

  it("labels every element", () => {
    for (const element of assumedElements) expect(element.label).not.toBe("");
  });
});
