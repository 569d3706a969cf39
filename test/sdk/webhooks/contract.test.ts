// The receiver accepts exactly what the contract's `webhooks` schema accepts, as the project's Ajv
// reads it (JSON Schema 2020-12 with formats): both are asked about the same payloads, valid ones
// and every kind of broken one. And each keyword an exact shape may carry is checked as Ajv checks
// it, so that a constraint the contract adds later is enforced, not ignored.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formats } from "../../../src/core/formats.js";
import { checkShape, type Shape } from "../../../src/core/shape.js";
import { CONSTRAINTS, exactCheck } from "../../../src/webhooks/exact-check.js";
import { parseRebuildCallback } from "../../../src/webhooks/index.js";
import { createContractAjv } from "../../support/contract-ajv.js";
import { callbackViolations } from "../../support/contract-validator.js";
import { importGenerator } from "../../support/generator-input.js";
import { failed, succeeded, WEBHOOK_KEY } from "./fixtures.js";

interface ShapeCompiler {
  compileShape(document: object, schema: unknown, profile: "lenient" | "exact", where: string): Shape;
  CONSTRAINTS: string[];
  FORMATS: string[];
}
const generator = await importGenerator<ShapeCompiler>("shapes.mjs");

function accepts(body: unknown): boolean {
  try {
    parseRebuildCallback({
      body: JSON.stringify(body),
      headers: { "x-api-key": WEBHOOK_KEY },
      webhookApiKey: WEBHOOK_KEY,
    });
    return true;
  } catch {
    return false;
  }
}

const FIELDS = [
  "event_type",
  "request_id",
  "partner_id",
  "project_id",
  "source_url",
  "status",
  "preview_url",
  "error_code",
  "error_message",
];

/** Values worth trying in any field: each JSON type, edge numbers, URI-ish and plain strings. */
const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    0,
    -1,
    1.5,
    2 ** 60,
    "",
    "success",
    "failed",
    "running",
    "partner_project_rebuild_completed",
  ),
  fc.webUrl(),
  fc.constantFrom(
    "ftp://files.example.com/a",
    "javascript:alert(1)",
    "/relative",
    "https://a b/",
    "mailto:x@y.z",
  ),
);

/** A callback, valid or not: a valid one with some fields removed, replaced or added. */
const payload = fc
  .record({
    base: fc.constantFrom<Record<string, unknown>>(succeeded, failed),
    removed: fc.subarray(FIELDS),
    replaced: fc.dictionary(fc.constantFrom(...FIELDS), anyValue, { maxKeys: 3 }),
    extra: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), {
      maxKeys: 2,
    }),
  })
  .map(({ base, removed, replaced, extra }) => {
    const body: Record<string, unknown> = { ...extra, ...base, ...replaced };
    for (const field of removed) delete body[field];
    return body;
  });

describe("the receiver and the contract agree", () => {
  // The one rule beyond the schema: an integer JavaScript cannot hold exactly (beyond ±(2^53 - 1))
  // is refused, since the value read may not be the one sent.
  it("on every payload: accepted exactly when the contract's schema accepts it and its partner_id is exact", () => {
    fc.assert(
      fc.property(payload, (body) => {
        const exact = typeof body.partner_id !== "number" || Number.isSafeInteger(body.partner_id);
        expect(accepts(body)).toBe(callbackViolations(body).length === 0 && exact);
      }),
      { numRuns: 2000 },
    );
  });

  it("including bodies that are not objects at all", () => {
    for (const body of [null, 42, "text", [succeeded], true]) {
      expect(accepts(body)).toBe(false);
      expect(callbackViolations(body)).not.toEqual([]);
    }
  });
});

describe("exact shapes: every keyword as Ajv reads it", () => {
  it("the receiver checks each keyword and format the generator lets through", () => {
    expect(Object.keys(CONSTRAINTS).sort()).toEqual([...generator.CONSTRAINTS].sort());
    expect(Object.keys(formats).sort()).toEqual([...generator.FORMATS].sort());
  });

  const schemas: Record<string, object> = {
    format: { type: "string", format: "uri" },
    pattern: { type: "string", pattern: "^[a-z]+-\\d$" },
    lengths: { type: "string", minLength: 2, maxLength: 4 },
    range: { type: "number", minimum: -1, maximum: 10 },
    exclusive: { type: "integer", exclusiveMinimum: 0, exclusiveMaximum: 5 },
    multipleOf: { type: "number", multipleOf: 0.5 },
    items: { type: "array", items: { type: "integer" }, minItems: 1, maxItems: 3, uniqueItems: true },
    properties: {
      type: "object",
      properties: { a: { type: "string" }, b: { const: 1 } },
      required: ["a"],
      additionalProperties: false,
      minProperties: 1,
      maxProperties: 2,
      dependentRequired: { b: ["a"] },
    },
    union: {
      oneOf: [
        {
          type: "object",
          properties: { kind: { const: "x" }, x: { type: "integer" } },
          required: ["kind", "x"],
        },
        { type: "object", properties: { kind: { enum: ["y", "z"] }, y: false }, required: ["kind"] },
      ],
      discriminator: { propertyName: "kind" },
    },
    enumeration: { enum: ["a", 1, null] },
  };
  const ajv = createContractAjv();
  const values = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.webUrl(),
    fc.string({ unit: fc.constantFrom(..."abz-09 :/?#%[]"), maxLength: 12 }),
    fc.array(fc.integer({ min: -2, max: 6 }), { maxLength: 4 }),
    fc.record({ a: fc.oneof(fc.string(), fc.integer()), b: fc.constantFrom(1, 2) }, { requiredKeys: [] }),
    fc.record(
      { kind: fc.constantFrom("x", "y", "z", "w"), x: fc.oneof(fc.integer(), fc.string()), y: fc.nat() },
      { requiredKeys: [] },
    ),
    fc.double({ min: -3, max: 12, noNaN: true }),
  );

  it.each(Object.entries(schemas))("%s", (_, schema) => {
    const shape = generator.compileShape({}, schema, "exact", "test");
    const validate = ajv.compile(schema);
    fc.assert(
      fc.property(values, (value) => {
        expect(checkShape(shape, value, exactCheck).length === 0).toBe(validate(value));
      }),
      { numRuns: 500 },
    );
  });

  it("refuses, when generating, a keyword nobody checks", () => {
    expect(() => generator.compileShape({}, { type: "object", patternProperties: {} }, "exact", "x")).toThrow(
      'x: the keyword "patternProperties" is not supported',
    );
    expect(() => generator.compileShape({}, { type: "string", format: "email" }, "exact", "x")).toThrow(
      'format "email" is not supported',
    );
  });
});
