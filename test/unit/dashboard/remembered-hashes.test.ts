import { describe, expect, it } from "vitest";
import { hashSecret, rememberingHashes } from "../../../mocks/domain/dashboard/secrets.js";

/** The hash under test, counting what it is asked. */
function counted() {
  const asked: string[] = [];
  const hash = (text: string) => {
    asked.push(text);
    return hashSecret(text);
  };
  return { asked, hash };
}

describe("rememberingHashes", () => {
  it("answers what the hash answers, hashing a secret presented again only once", () => {
    const { asked, hash } = counted();
    const remembering = rememberingHashes(hash);
    for (let i = 0; i < 5; i++)
      expect(remembering("mock-token-unrestricted")).toBe(hashSecret("mock-token-unrestricted"));
    expect(asked).toEqual(["mock-token-unrestricted"]);
  });

  it("holds at most `capacity` secrets, forgetting the least recently presented first", () => {
    const { asked, hash } = counted();
    const remembering = rememberingHashes(hash, 3);
    for (const secret of ["a", "b", "c"]) remembering(secret);
    remembering("a"); // in use again: now the most recent
    remembering("d"); // full: "b" goes
    asked.length = 0;
    for (const secret of ["a", "c", "d"]) remembering(secret);
    expect(asked).toEqual([]);
    remembering("b");
    expect(asked).toEqual(["b"]);
  });

  it("keeps a secret in use however many others come and go", () => {
    const { asked, hash } = counted();
    const remembering = rememberingHashes(hash, 3);
    for (let i = 0; i < 100; i++) {
      remembering("in-use");
      remembering(`guess-${i}`);
    }
    expect(asked.filter((secret) => secret === "in-use")).toEqual(["in-use"]);
    // The guesses were forgotten: only the last few are still known.
    asked.length = 0;
    remembering("guess-0");
    expect(asked).toEqual(["guess-0"]);
  });

  it("does not keep long secrets, so a client cannot fill memory with them", () => {
    const { asked, hash } = counted();
    const remembering = rememberingHashes(hash);
    const long = "x".repeat(10_000);
    expect(remembering(long)).toBe(hashSecret(long));
    expect(remembering(long)).toBe(hashSecret(long));
    expect(asked).toEqual([long, long]);
  });
});
