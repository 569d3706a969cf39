import { describe, expect, it } from "vitest";
import * as limits from "../../src/generated/limits.js";
import { importGenerator, readDocument } from "../support/generator-input.js";

interface Parsed {
  name: string;
  document: unknown;
}
interface LimitsGenerator {
  generateLimits(documents: Parsed[]): Array<{ path: string; content: string }>;
}
const { generateLimits } = await importGenerator<LimitsGenerator>("limits.mjs");

const read = (name: string): Parsed => readDocument(name);

describe("src/generated/limits.ts", () => {
  it("holds the numbers where the contract states them", () => {
    // Read here from the documents by hand, independently of the generator's pointers.
    const dashboard = read("dashboard").document as {
      components: { parameters: { PageSize: { schema: { maximum: number } } } };
    };
    const control = read("mock-control").document as {
      components: {
        schemas: {
          JournalEntry: { properties: Record<string, { maxLength?: number; "x-max-json-length"?: number }> };
        };
      };
    };
    const entry = control.components.schemas.JournalEntry.properties;
    const rebuild = read("rebuild").document as { "x-body-limit": number };
    expect({ ...limits }).toEqual({
      REBUILD_BODY_MAX_BYTES: rebuild["x-body-limit"],
      PAGE_SIZE_MAXIMUM: dashboard.components.parameters.PageSize.schema.maximum,
      JOURNAL_METHOD_MAX_LENGTH: entry.method?.maxLength,
      JOURNAL_PATH_MAX_LENGTH: entry.path?.maxLength,
      JOURNAL_BODY_MAX_LENGTH: entry.body?.["x-max-json-length"],
    });
  });

  it("follows a change of the contract", () => {
    const dashboard = read("dashboard");
    const doc = dashboard.document as {
      components: { parameters: { PageSize: { schema: { maximum: number } } } };
    };
    doc.components.parameters.PageSize.schema.maximum = 250;
    const [file] = generateLimits([dashboard, read("rebuild"), read("mock-control")]);
    expect(file?.content).toContain("export const PAGE_SIZE_MAXIMUM = 250;");
  });

  it("fails the generation when the contract no longer states a number there", () => {
    const dashboard = read("dashboard");
    const doc = dashboard.document as { components: { parameters: { PageSize: { schema: object } } } };
    doc.components.parameters.PageSize.schema = { type: "integer" };
    expect(() => generateLimits([dashboard, read("rebuild"), read("mock-control")])).toThrow(
      /openapi\/dashboard\.yaml#\/components\/parameters\/PageSize\/schema\/maximum is not a number/,
    );
  });
});
