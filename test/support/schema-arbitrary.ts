// Values drawn from a JSON Schema of the contract, as a schema-driven tool would draw them
// (decisions/041): the keywords request bodies use (`$ref`, `oneOf`, objects, arrays, strings with a
// `pattern`, `format: uuid`, `const`/`enum`, booleans, integers). Whatever the schema says beyond
// these (`not`, `anyOf`, `contains`, `dependentRequired`, lengths beside a pattern) is left to the
// caller, who keeps the values a validator accepts.
import fc from "fast-check";
import { isObject, type JsonObject } from "./contract-validator.js";

/** An arbitrary of the values of `schema`, `$ref`s resolved in `doc`; bounded in size. */
export function arbitraryOf(doc: JsonObject, schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  if (!isObject(schema) || depth > 12) return fc.constant(null);
  if (typeof schema.$ref === "string") return arbitraryOf(doc, resolveRef(doc, schema.$ref), depth + 1);
  if (Array.isArray(schema.oneOf))
    return fc.oneof(...schema.oneOf.map((branch) => arbitraryOf(doc, branch, depth + 1)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case "object":
      return objectOf(doc, schema, depth);
    case "array": {
      const minLength = typeof schema.minItems === "number" ? schema.minItems : 0;
      const maxLength = Math.min(typeof schema.maxItems === "number" ? schema.maxItems : 5, minLength + 5);
      return fc.array(arbitraryOf(doc, schema.items, depth + 1), { minLength, maxLength });
    }
    case "string":
      return stringOf(schema);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({
        min: typeof schema.minimum === "number" ? schema.minimum : -1000,
        max: typeof schema.maximum === "number" ? schema.maximum : 1000,
      });
    default:
      return fc.constant(null);
  }
}

function objectOf(doc: JsonObject, schema: JsonObject, depth: number): fc.Arbitrary<unknown> {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    // A field that must be absent (`not: {}`) is never drawn.
    if (isObject(property) && isObject(property.not)) continue;
    record[name] = arbitraryOf(doc, property, depth + 1);
  }
  const requiredKeys = required.filter((name) => name in record);
  return fc.record(record, { requiredKeys });
}

function stringOf(schema: JsonObject): fc.Arbitrary<string> {
  if (typeof schema.pattern === "string") return fc.stringMatching(new RegExp(schema.pattern, "u"));
  if (schema.format === "uuid") return fc.uuid();
  const minLength = typeof schema.minLength === "number" ? schema.minLength : 0;
  const maxLength = Math.min(typeof schema.maxLength === "number" ? schema.maxLength : 40, minLength + 40);
  return fc.string({ unit: "grapheme", minLength, maxLength });
}

function resolveRef(doc: JsonObject, ref: string): unknown {
  let node: unknown = doc;
  for (const token of ref.replace(/^#\//, "").split("/")) {
    node = isObject(node) ? node[token.replaceAll("~1", "/").replaceAll("~0", "~")] : undefined;
  }
  return node;
}
