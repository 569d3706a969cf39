import { describe, expect, it } from "vitest";
import { createNameSearch } from "../../../mocks/domain/dashboard/name-search.js";

function searchOf(...names: string[]) {
  const search = createNameSearch<{ nameLower: string }>();
  for (const nameLower of names) search.append({ nameLower });
  return search;
}

const namesOf = (items: Array<{ nameLower: string }>) => items.map((item) => item.nameLower);

describe("NameSearch", () => {
  it("finds each matching name once, in order, including matches at either end", () => {
    const search = searchOf("abab", "b", "cab", "ba", "zzz");
    expect(namesOf(search.matching("ab"))).toEqual(["abab", "cab"]);
    expect(namesOf(search.matching("b"))).toEqual(["abab", "b", "cab", "ba"]);
    expect(namesOf(search.matching("zzz"))).toEqual(["zzz"]);
    expect(search.matching("bc")).toEqual([]);
  });

  it("never matches across two names", () => {
    expect(searchOf("ab", "cd").matching("bc")).toEqual([]);
  });

  it("handles names and needles holding the separator character", () => {
    const search = searchOf("a\u0000b", "b", "a");
    expect(namesOf(search.matching("a\u0000b"))).toEqual(["a\u0000b"]);
    expect(namesOf(search.matching("b"))).toEqual(["a\u0000b", "b"]);
    expect(searchOf("a", "b").matching("a\u0000b")).toEqual([]);
  });

  it("matches everything for an empty needle and nothing when empty", () => {
    expect(namesOf(searchOf("x", "y").matching(""))).toEqual(["x", "y"]);
    expect(searchOf().matching("x")).toEqual([]);
  });
});
