// The example app serves a committed copy of MSW's worker script, and a worker script must match
// the installed msw's version: after an msw upgrade this fails until the copy is refreshed.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

describe("examples/browser/public/mockServiceWorker.js", () => {
  it("is the installed msw's worker script (else: npx msw init examples/browser/public --no-save)", async () => {
    const installed = createRequire(import.meta.url).resolve("msw/mockServiceWorker.js");
    const committed = await readFile("examples/browser/public/mockServiceWorker.js", "utf8");
    expect(committed === (await readFile(installed, "utf8"))).toBe(true);
  });
});
