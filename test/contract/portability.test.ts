// The contract must work in other people's tools, not only in ours (decisions/022): a second,
// independent validator accepts both documents, no generated type is named after a JavaScript global,
// and where OpenAPI 3.1 offers two spellings the one common generators read is used.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const DOCUMENTS = ["dashboard", "rebuild"] as const;
const pathOf = (name: string) => fileURLToPath(new URL(`../../openapi/${name}.yaml`, import.meta.url));
const load = (name: string): unknown => parse(readFileSync(pathOf(name), "utf8"));

// Globals a generated client's module may shadow: this runtime's, plus the browser's that Node lacks.
const GLOBALS = new Set([
  ...Object.getOwnPropertyNames(globalThis),
  ...["Document", "Element", "Node", "Window", "Location", "History", "Storage", "Image", "Option"],
  ...["Audio", "Screen", "Selection", "Range", "Text", "Comment", "Attr", "Notification", "Worker"],
]);

type Found = { pointer: string; value: unknown };

/** Every value under `node` with its JSON pointer, examples excluded (they are data, not schemas). */
function walk(node: unknown, pointer = "", found: Found[] = []): Found[] {
  found.push({ pointer, value: node });
  if (typeof node !== "object" || node === null) return found;
  for (const [key, child] of Object.entries(node)) {
    if (key === "example" || key === "examples") continue;
    walk(child, `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`, found);
  }
  return found;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

describe.each(DOCUMENTS)("openapi/%s.yaml in other tools", (name) => {
  it("is valid for @apidevtools/swagger-parser (the official OAS 3.1 schema plus $ref checks)", async () => {
    await expect(SwaggerParser.validate(pathOf(name))).resolves.toBeDefined();
  });

  it("names no schema after a JavaScript global", () => {
    const document = load(name);
    const components = isObject(document) && isObject(document.components) ? document.components : {};
    const names = Object.keys(isObject(components.schemas) ? components.schemas : {});
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((schema) => GLOBALS.has(schema))).toEqual([]);
  });

  it("writes a forbidden field as `not: {}`, never as the boolean schema `false`", () => {
    // Under `properties` (and the other schema maps), a boolean is a schema; `additionalProperties:
    // false` is the spelling every generator reads and stays.
    const booleans = walk(load(name)).filter(
      ({ pointer, value }) =>
        typeof value === "boolean" && /\/(properties|patternProperties)\/[^/]+$/.test(pointer),
    );
    expect(booleans.map(({ pointer }) => pointer)).toEqual([]);
  });

  it("ends no pattern in `//` (orval cuts such a pattern short) and uses no look-around in one", () => {
    // Generators draw strings from patterns (fast-check, randexp), and few of them know look-around.
    const patterns = walk(load(name)).filter(({ pointer }) => pointer.endsWith("/pattern"));
    expect(patterns.length).toBeGreaterThan(0);
    const problems = patterns
      .filter(({ value }) => typeof value !== "string" || value.endsWith("//") || /\(\?<?[=!]/.test(value))
      .map(({ pointer }) => pointer);
    expect(problems).toEqual([]);
  });

  it("gives every `const` an `enum` of that one value beside it", () => {
    const consts = walk(load(name)).filter(({ value }) => isObject(value) && "const" in value);
    expect(consts.length).toBeGreaterThan(0);
    const problems = consts
      .filter(({ value }) => {
        const schema = value as Record<string, unknown>;
        return !(Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === schema.const);
      })
      .map(({ pointer }) => pointer);
    expect(problems).toEqual([]);
  });
});
