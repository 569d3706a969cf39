// Validates every example in the OpenAPI documents against the schema it illustrates, and checks that
// every request body and every documented response with a body has at least one example.
//
// Examples are found in media types (`example` / `examples`, including `$ref`'d Example Objects),
// parameters and headers (`example` / `examples`), and schemas (`examples` arrays and the OpenAPI
// `example`), anywhere in the document, webhooks included. Each document is added to Ajv as one
// schema with an `$id`, so an example is validated against `<$id>#<JSON Pointer of its schema>` and
// every `$ref` (`#/components/schemas/...`) resolves inside the document.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createContractAjv } from "../support/contract-ajv.js";

/** Every contract document. A missing document fails the suite; nothing is skipped. */
const DOCUMENTS = ["dashboard.yaml", "rebuild.yaml"] as const;

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** Schema keywords whose value is one subschema. */
const SUBSCHEMA_KEYWORDS = [
  "items",
  "additionalItems",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
] as const;
/** Schema keywords whose value is an array of subschemas. */
const SUBSCHEMA_ARRAY_KEYWORDS = ["allOf", "anyOf", "oneOf", "prefixItems"] as const;
/** Schema keywords whose value is a map of subschemas. */
const SUBSCHEMA_MAP_KEYWORDS = [
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
] as const;

type JsonObject = Record<string, unknown>;

interface ExampleCase {
  /** JSON Pointer of the example value (or of the Example Object holding it). */
  location: string;
  /** JSON Pointer of the schema the example must satisfy. */
  schemaPointer: string;
  value: unknown;
  /** Set when the example cannot be read (unresolvable `$ref`, `externalValue`, no `value`). */
  problem?: string;
}

interface Requirement {
  name: string;
  satisfied: boolean;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function escapeToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

function child(pointer: string, token: string | number): string {
  return `${pointer}/${escapeToken(String(token))}`;
}

/** The value at a local reference (`#/a/b`) of the document, or undefined. */
function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  const pointer = ref.slice(1);
  if (pointer === "") return doc;
  let node: unknown = doc;
  for (const raw of pointer.split("/").slice(1)) {
    const token = unescapeToken(decodeURIComponent(raw));
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isObject(node)) node = node[token];
    else return undefined;
  }
  return node;
}

/** Follows `$ref` chains (local only) to the referenced object. */
function deref(doc: unknown, node: unknown): unknown {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops++) {
    if (hops > 20) return undefined;
    current = resolvePointer(doc, current.$ref);
  }
  return current;
}

/** Collects `example` / `examples` of a media type, parameter or header object. */
function collectHolderExamples(doc: unknown, holder: JsonObject, pointer: string, out: ExampleCase[]): void {
  const schemaPointer = child(pointer, "schema");
  if ("example" in holder) {
    out.push({ location: child(pointer, "example"), schemaPointer, value: holder.example });
  }
  if (isObject(holder.examples)) {
    for (const [name, entry] of Object.entries(holder.examples)) {
      const location = child(child(pointer, "examples"), name);
      const example = deref(doc, entry);
      if (!isObject(example)) {
        out.push({ location, schemaPointer, value: undefined, problem: "the example cannot be resolved" });
      } else if ("externalValue" in example) {
        out.push({ location, schemaPointer, value: undefined, problem: "externalValue is not supported" });
      } else if (!("value" in example)) {
        out.push({ location, schemaPointer, value: undefined, problem: "the Example Object has no value" });
      } else {
        out.push({ location, schemaPointer, value: example.value });
      }
    }
  }
}

/** Collects the examples of a schema and of all its subschemas (not following `$ref`). */
function collectSchemaExamples(schema: unknown, pointer: string, out: ExampleCase[]): void {
  if (!isObject(schema)) return;
  if (Array.isArray(schema.examples)) {
    schema.examples.forEach((value, index) => {
      out.push({ location: child(child(pointer, "examples"), index), schemaPointer: pointer, value });
    });
  }
  if ("example" in schema) {
    out.push({ location: child(pointer, "example"), schemaPointer: pointer, value: schema.example });
  }
  for (const keyword of SUBSCHEMA_KEYWORDS) {
    if (keyword in schema) collectSchemaExamples(schema[keyword], child(pointer, keyword), out);
  }
  for (const keyword of SUBSCHEMA_ARRAY_KEYWORDS) {
    const list = schema[keyword];
    if (Array.isArray(list)) {
      list.forEach((sub, index) => {
        collectSchemaExamples(sub, child(child(pointer, keyword), index), out);
      });
    }
  }
  for (const keyword of SUBSCHEMA_MAP_KEYWORDS) {
    const map = schema[keyword];
    if (isObject(map)) {
      for (const [name, sub] of Object.entries(map)) {
        collectSchemaExamples(sub, child(child(pointer, keyword), name), out);
      }
    }
  }
}

/**
 * Walks the OpenAPI structure. Any object with a `schema` is a media type, parameter or header;
 * `components/schemas` entries are schemas. Example values and Example Objects are data and are not
 * walked (a `$ref`'d Example Object is validated where it is used).
 */
function collectExamples(doc: unknown, node: unknown, pointer: string, out: ExampleCase[]): void {
  if (Array.isArray(node)) {
    node.forEach((item, index) => {
      collectExamples(doc, item, child(pointer, index), out);
    });
    return;
  }
  if (!isObject(node)) return;
  if (pointer === "/components/schemas") {
    for (const [name, schema] of Object.entries(node)) {
      collectSchemaExamples(schema, child(pointer, name), out);
    }
    return;
  }
  if ("schema" in node) {
    collectHolderExamples(doc, node, pointer, out);
    collectSchemaExamples(node.schema, child(pointer, "schema"), out);
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === "schema" || key === "example" || key === "examples") continue;
    collectExamples(doc, value, child(pointer, key), out);
  }
}

function hasExample(mediaType: unknown): boolean {
  if (!isObject(mediaType)) return false;
  if ("example" in mediaType) return true;
  return isObject(mediaType.examples) && Object.keys(mediaType.examples).length > 0;
}

/** One requirement per media type of every request body and every response of every operation. */
function collectRequirements(doc: unknown): Requirement[] {
  const out: Requirement[] = [];
  if (!isObject(doc)) return out;
  for (const section of ["paths", "webhooks"] as const) {
    const items = doc[section];
    if (!isObject(items)) continue;
    for (const [path, rawItem] of Object.entries(items)) {
      const item = deref(doc, rawItem);
      if (!isObject(item)) continue;
      for (const method of HTTP_METHODS) {
        const operation = item[method];
        if (!isObject(operation)) continue;
        const label = `${section === "webhooks" ? "webhook " : ""}${method.toUpperCase()} ${path}`;
        const body = deref(doc, operation.requestBody);
        if (isObject(body) && isObject(body.content)) {
          for (const [type, mediaType] of Object.entries(body.content)) {
            out.push({
              name: `${label}: request body (${type}) has an example`,
              satisfied: hasExample(mediaType),
            });
          }
        }
        if (isObject(operation.responses)) {
          for (const [status, rawResponse] of Object.entries(operation.responses)) {
            const response = deref(doc, rawResponse);
            if (!isObject(response) || !isObject(response.content)) continue;
            for (const [type, mediaType] of Object.entries(response.content)) {
              out.push({
                name: `${label}: response ${status} (${type}) has an example`,
                satisfied: hasExample(mediaType),
              });
            }
          }
        }
      }
    }
  }
  return out;
}

for (const file of DOCUMENTS) {
  describe(`openapi/${file} examples`, () => {
    const path = fileURLToPath(new URL(`../../openapi/${file}`, import.meta.url));
    if (!existsSync(path)) {
      it("the document exists", () => {
        expect.fail(`openapi/${file} is missing`);
      });
      return;
    }
    let doc: unknown;
    try {
      doc = parse(readFileSync(path, "utf8"));
    } catch (error) {
      it("the document parses", () => {
        throw error;
      });
      return;
    }

    const ajv = createContractAjv();
    const id = `https://contract.test/openapi/${file}`;
    ajv.addSchema({ ...(doc as JsonObject), $id: id });
    const validators = new Map<string, ReturnType<typeof ajv.compile>>();
    const validatorFor = (schemaPointer: string) => {
      let validate = validators.get(schemaPointer);
      if (!validate) {
        const fragment = schemaPointer.split("/").map(encodeURIComponent).join("/");
        validate = ajv.compile({ $ref: `${id}#${fragment}` });
        validators.set(schemaPointer, validate);
      }
      return validate;
    };

    const cases: ExampleCase[] = [];
    collectExamples(doc, doc, "", cases);

    it("has examples", () => {
      expect(cases.length).toBeGreaterThan(0);
    });

    for (const example of cases) {
      it(`#${example.location}`, () => {
        if (example.problem) expect.fail(example.problem);
        const validate = validatorFor(example.schemaPointer);
        const valid = validate(example.value);
        expect(validate.errors ?? [], `against #${example.schemaPointer}`).toEqual([]);
        expect(valid).toBe(true);
      });
    }

    for (const requirement of collectRequirements(doc)) {
      it(requirement.name, () => {
        expect(requirement.satisfied).toBe(true);
      });
    }
  });
}
