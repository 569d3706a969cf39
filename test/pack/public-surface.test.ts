// The public type surface as a consumer's editor sees it: each entry point's declaration file in the
// built dist/ (built first when missing or stale, test/support/built-package.ts) together with every
// chunk it imports. No internal type may show there (issue 21): the SDK's `Transport`, the mock's
// whole internal `Clock` (`setTime`, `reset`: a world's clock is a `MockClock` view, decisions/025)
// and, in the runtime-neutral `./mocks`, the node server's `EdgeRule` (decisions/047).
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../support/built-package.js";

const dist = fileURLToPath(new URL("../../dist/", import.meta.url));

/** An entry point's declarations: its d.ts and every local d.ts it imports, transitively. */
function declarations(entry: string): string {
  const seen = new Set<string>();
  const visit = (file: string): string => {
    if (seen.has(file)) return "";
    seen.add(file);
    const text = readFileSync(file, "utf8");
    const imported = [...text.matchAll(/from\s+["'](\.{1,2}\/[^"']+)["']/g)].map((m) =>
      resolve(dirname(file), (m[1] ?? "").replace(/\.js$/, ".d.ts")),
    );
    return [text, ...imported.map(visit)].join("\n");
  };
  return visit(join(dist, entry));
}

/** The lines of `text` that match `pattern`: what a failure shows, instead of the whole file. */
function linesWith(text: string, pattern: RegExp): string[] {
  return text.split("\n").filter((line) => pattern.test(line));
}

beforeAll(ensureBuilt, 240_000);

describe("public surface: no internal type in a public d.ts", () => {
  it("the package root names no Transport", () => {
    expect(linesWith(declarations("index.d.ts"), /\bTransport\b/)).toEqual([]);
  });

  it.each(["mocks/index.d.ts", "mocks/node.d.ts", "mocks/browser.d.ts"])(
    "%s has no internal Clock (setTime); createClock gives a MockClock",
    (entry) => {
      const text = declarations(entry);
      expect(linesWith(text, /\bsetTime\b|\binterface Clock\b/)).toEqual([]);
      expect(linesWith(text, /\bcreateClock\b.*\): MockClock;/)).toHaveLength(1);
    },
  );

  it("the runtime-neutral ./mocks has no EdgeRule; ./mocks/node has it", () => {
    expect(linesWith(declarations("mocks/index.d.ts"), /\bEdgeRule\b/)).toEqual([]);
    expect(linesWith(declarations("mocks/browser.d.ts"), /\bEdgeRule\b/)).toEqual([]);
    expect(linesWith(declarations("mocks/node.d.ts"), /\bEdgeRule\b/)).not.toEqual([]);
  });
});
