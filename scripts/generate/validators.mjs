// Request validators compiled from the contract (decisions/023). For each document, every operation's
// parameters (path, query, headers: one object schema per location) and JSON request body, plus the
// component schemas a document asks for, are compiled by Ajv (JSON Schema 2020-12) into standalone
// code, which esbuild bundles with the bits of Ajv's runtime it needs into one self-contained ES
// module: nothing imports `ajv` at run time. The formats the contract names are looked up in the one
// hand-written module src/core/formats.ts. Output: src/generated/<document>-validators.js and .d.ts.
import { fileURLToPath } from "node:url";
import Ajv2020, { _ } from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";
import { buildSync } from "esbuild";

const root = fileURLToPath(new URL("../..", import.meta.url));
const FORMATS_IMPORT = "__contract_formats__";
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];
const LOCATIONS = ["path", "query", "header"];
// Annotations only: the validators neither need them nor should carry their text.
const ANNOTATIONS = new Set([
  "description",
  "summary",
  "title",
  "examples",
  "example",
  "deprecated",
  "$comment",
]);

/** Component schemas compiled beside the operations, by document (what is not an operation's body). */
const COMPONENT_SCHEMAS = { "mock-control": ["MockSeed", "HttpUrl"] };

/**
 * The files this generator owns for the parsed documents `[{ name, document }]`: `{ path, content }`.
 * Documents may `$ref` each other by file name (`./dashboard.yaml#/…`).
 */
export function generateValidators(documents) {
  const ajv = new Ajv2020.default({
    strict: true,
    strictRequired: false,
    strictTypes: false,
    allErrors: true,
    discriminator: true,
    messages: false,
    useDefaults: true,
    allowUnionTypes: true,
    // Every `$ref` one shared function: inlined, the snapshot schema alone would be 300 KB of code.
    inlineRefs: false,
    code: { source: true, esm: true, formats: _`formats`, optimize: 1 },
  });
  // The document root is not a schema; its fields are named so strict mode knows them.
  ajv.addVocabulary(["openapi", "info", "jsonSchemaDialect", "servers", "paths", "webhooks", "components"]);
  ajv.addVocabulary(["security", "tags", "externalDocs"]);
  // Compile-time stand-ins: the code refers to `formats[name]`, never to these functions.
  for (const name of ["iri", "uri", "uuid", "date-time", "ipv4", "ipv6"]) ajv.addFormat(name, () => true);
  const prepared = new Map(documents.map(({ name, document }) => [name, prepare(document)]));
  const descriptions = new Map(documents.map(({ name, document }) => [name, patternDescriptions(document)]));
  for (const [name, document] of prepared) ajv.addSchema(document, idOf(name));

  const files = [];
  for (const { name, document } of documents) {
    const exports = {};
    const operations = [];
    for (const found of operationsOf(document)) {
      const entry = {
        operationId: found.operationId,
        method: found.method,
        template: found.path,
        inputs: {},
      };
      for (const location of LOCATIONS) {
        const parameters = found.parameters.filter((p) => p.parameter.in === location);
        if (parameters.length === 0) continue;
        const key = `${found.operationId}_${location}`;
        ajv.addSchema(
          {
            type: "object",
            // Inlined, not referenced: Ajv fills in `default`s only where it sees them.
            properties: Object.fromEntries(
              parameters.map((p) => [p.parameter.name, absolute(prepared.get(name), p.pointer, idOf(name))]),
            ),
            required: parameters.filter((p) => p.parameter.required === true).map((p) => p.parameter.name),
          },
          key,
        );
        exports[key] = key;
        entry.inputs[location] = {
          key,
          parameters: parameters.map((p) => ({
            name: p.parameter.name,
            type: schemaType(document, p.parameter.schema),
            required: p.parameter.required === true,
            hasDefault: resolveLocal(document, p.parameter.schema)?.default !== undefined,
          })),
        };
      }
      if (found.body) {
        const key = `${found.operationId}_body`;
        ajv.addSchema({ $ref: `${idOf(name)}#${found.body.pointer}` }, key);
        exports[key] = key;
        entry.inputs.body = { key, required: found.body.required };
      }
      operations.push(entry);
    }
    const schemas = COMPONENT_SCHEMAS[name] ?? [];
    for (const schema of schemas) {
      const key = `schema_${schema}`;
      ajv.addSchema({ $ref: `${idOf(name)}#/components/schemas/${schema}` }, key);
      exports[key] = key;
    }
    files.push({
      path: `src/generated/${name}-validators.js`,
      content: bundle(name, ajv, exports, operations, schemas, descriptions.get(name)),
    });
    files.push({
      path: `src/generated/${name}-validators.d.ts`,
      content: declarations(name, operations, schemas),
    });
  }
  files.push({ path: "src/generated/validator-types.d.ts", content: VALIDATOR_TYPES });
  return files;
}

function idOf(name) {
  return `${name}.yaml`;
}

/** A parameter's schema from the prepared document, its local `$ref`s made absolute. */
function absolute(document, parameterPointer, id) {
  const parameter = parameterPointer
    .slice(1)
    .split("/")
    .reduce((at, token) => at?.[token.replaceAll("~1", "/").replaceAll("~0", "~")], document);
  const copy = structuredClone(parameter.schema);
  const visit = (node) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === "object") {
      if (typeof node.$ref === "string" && node.$ref.startsWith("#")) node.$ref = `${id}${node.$ref}`;
      Object.values(node).forEach(visit);
    }
  };
  visit(copy);
  return copy;
}

/**
 * The document as the validators need it: annotations and `x-` extensions dropped, and each
 * `discriminator` without its `mapping` (which Ajv does not take; `oneOf` says the same), with the
 * tag required and limited to its values on the union itself, so a missing or unknown tag is an
 * error at the tag (`required`, `enum`) rather than a failed union.
 */
function prepare(document) {
  const copy = structuredClone(document);
  const visit = (node, inSchema) => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, inSchema);
      return;
    }
    if (node === null || typeof node !== "object") return;
    for (const key of Object.keys(node)) {
      if (key.startsWith("x-") || (inSchema && ANNOTATIONS.has(key))) delete node[key];
    }
    if (inSchema && node.discriminator && Array.isArray(node.oneOf)) {
      const tag = node.discriminator.propertyName;
      node.discriminator = { propertyName: tag };
      const values = node.oneOf.flatMap((branch) => tagValues(copy, branch, tag));
      node.properties = { ...node.properties, [tag]: { type: "string", enum: values } };
      node.required = [...new Set([...(node.required ?? []), tag])];
    }
    for (const [key, value] of Object.entries(node)) {
      // Below `schema(s)` everything is JSON Schema, except under `properties`-like maps, whose
      // keys are names (a property may be called `description`).
      const schemaMap = ["properties", "patternProperties", "$defs", "dependentSchemas"].includes(key);
      if (schemaMap && value && typeof value === "object") {
        for (const child of Object.values(value)) visit(child, true);
      } else {
        visit(value, inSchema || key === "schema" || key === "schemas");
      }
    }
  };
  visit(copy, false);
  return copy;
}

/**
 * What each `pattern` means in words, from the document's `x-pattern-description` beside it: the
 * field error for a value that does not match says "must be <description>" instead of quoting the
 * expression. One pattern, one description.
 */
function patternDescriptions(document) {
  const found = {};
  const visit = (node) => {
    if (Array.isArray(node)) node.forEach(visit);
    if (node === null || typeof node !== "object") return;
    const description = node["x-pattern-description"];
    if (typeof node.pattern === "string" && typeof description === "string") {
      if (found[node.pattern] !== undefined && found[node.pattern] !== description) {
        throw new Error(`generate: two descriptions for the pattern ${node.pattern}`);
      }
      found[node.pattern] = description;
    }
    for (const [key, value] of Object.entries(node))
      if (key !== "examples" && key !== "example") visit(value);
  };
  visit(document);
  return Object.fromEntries(Object.entries(found).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function tagValues(document, branch, tag) {
  const schema = resolveLocal(document, branch);
  const property = schema?.properties?.[tag];
  if (property?.const !== undefined) return [property.const];
  if (Array.isArray(property?.enum)) return property.enum;
  throw new Error(`generate: a discriminator branch has no const or enum for "${tag}"`);
}

function resolveLocal(document, node) {
  let current = node;
  for (let hops = 0; current && typeof current.$ref === "string"; hops++) {
    if (hops > 20 || !current.$ref.startsWith("#/"))
      throw new Error(`generate: cannot follow ${current.$ref}`);
    current = current.$ref
      .slice(2)
      .split("/")
      .reduce((at, token) => at?.[token.replaceAll("~1", "/").replaceAll("~0", "~")], document);
  }
  return current;
}

const pointer = (...tokens) =>
  tokens.map((t) => `/${String(t).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");

/** Every operation with its parameters (resolved, with the pointer of each) and its JSON body. */
function operationsOf(document) {
  const found = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const declared = [
        ...(item.parameters ?? []).map((p, i) => ({ node: p, at: pointer("paths", path, "parameters", i) })),
        ...(operation.parameters ?? []).map((p, i) => ({
          node: p,
          at: pointer("paths", path, method, "parameters", i),
        })),
      ];
      // An operation-level parameter overrides a path-level one of the same name and location.
      const byKey = new Map();
      for (const { node, at } of declared) {
        const parameter = resolveLocal(document, node);
        const resolvedAt = node.$ref ? node.$ref.slice(1) : at;
        byKey.set(`${parameter.in} ${parameter.name}`, { parameter, pointer: resolvedAt });
      }
      let body;
      if (operation.requestBody) {
        const requestBody = resolveLocal(document, operation.requestBody);
        const at = operation.requestBody.$ref
          ? operation.requestBody.$ref.slice(1)
          : pointer("paths", path, method, "requestBody");
        if (requestBody.content?.["application/json"]?.schema) {
          body = {
            pointer: `${at}${pointer("content", "application/json", "schema")}`,
            required: requestBody.required === true,
          };
        }
      }
      found.push({ operationId: operation.operationId, method, path, parameters: [...byKey.values()], body });
    }
  }
  return found;
}

/** The JSON type a parameter's text is read as (`integer`, `number`, `boolean`; anything else `string`). */
function schemaType(document, schema) {
  const type = resolveLocal(document, schema)?.type;
  return ["integer", "number", "boolean"].includes(type) ? type : "string";
}

function bundle(name, ajv, exports, operations, schemas, descriptions) {
  const standalone = standaloneCode
    .default(ajv, exports)
    // The validators are reached through `operations` and `schemas` only.
    .replace(/export const (\w+) = (validate\w*);/g, "const $1 = $2;");
  const input = (location) => (entry) => {
    const found = entry.inputs[location];
    if (!found) return "";
    if (location === "body") return `body: { validate: ${found.key}, required: ${found.required} }, `;
    const metadata = found.parameters.map(({ name, type, required }) => ({ name, type, required }));
    return `${location}: { validate: ${found.key}, parameters: ${JSON.stringify(metadata)} }, `;
  };
  const table = operations
    .map(
      (entry) =>
        `  ${JSON.stringify(entry.operationId)}: { method: ${JSON.stringify(entry.method.toUpperCase())}, template: ${JSON.stringify(entry.template)}, ` +
        `${["path", "query", "header", "body"].map((l) => input(l)(entry)).join("")}},`,
    )
    .join("\n");
  const schemaTable = schemas.map((schema) => `  ${schema}: schema_${schema},`).join("\n");
  const routeTable = {};
  for (const entry of operations) {
    routeTable[entry.template] = { ...routeTable[entry.template], [entry.method]: entry.operationId };
  }
  const source = [
    `import { formats } from ${JSON.stringify(FORMATS_IMPORT)};`,
    standalone,
    `export const operations = {\n${table}\n};`,
    `export const schemas = {\n${schemaTable}\n};`,
    `export const routes = ${JSON.stringify(routeTable, null, 2)};`,
    `export const patternDescriptions = ${JSON.stringify(descriptions, null, 2)};`,
  ].join("\n");
  const result = buildSync({
    stdin: { contents: source, resolveDir: root, sourcefile: `${name}-validators.js`, loader: "js" },
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    external: [FORMATS_IMPORT],
    legalComments: "none",
    // Whitespace and syntax only: the names (validate12, schema3) stay readable in a stack trace.
    minifyWhitespace: true,
    minifySyntax: true,
    charset: "utf8",
    write: false,
  });
  const code = result.outputFiles[0].text
    .replace(JSON.stringify(FORMATS_IMPORT), '"../core/formats.js"')
    // How Ajv's own compiler refers to its runtime helpers; the bundled code never reads it.
    .replace(/;\w+\.code='require\("ajv\/[^']*'/g, "");
  return `${header(name)}${code}`;
}

function header(name) {
  return (
    `// Generated by \`npm run generate\` from openapi/${name}.yaml: request validators (Ajv standalone code,\n` +
    "// bundled). Do not edit by hand. See scripts/generate/validators.mjs.\n"
  );
}

function declarations(name, operations, schemas) {
  const byPath = new Map();
  for (const entry of operations) {
    byPath.set(entry.template, [...(byPath.get(entry.template) ?? []), entry]);
  }
  const routes = [...byPath]
    .map(
      ([template, entries]) =>
        `  readonly ${JSON.stringify(template)}: { ${entries
          .map((e) => `readonly ${e.method}: ${JSON.stringify(e.operationId)};`)
          .join(" ")} };`,
    )
    .join("\n");
  const op = (entry) => `Operations[${JSON.stringify(entry.operationId)}]`;
  const parameters = (entry, location) => {
    const found = entry.inputs[location];
    if (!found) return "undefined";
    const type = `NonNullable<${op(entry)}["parameters"][${JSON.stringify(location)}]>`;
    const defaulted = found.parameters.filter((p) => p.hasDefault).map((p) => JSON.stringify(p.name));
    return defaulted.length === 0 ? type : `WithDefaults<${type}, ${defaulted.join(" | ")}>`;
  };
  const body = (entry) => {
    const found = entry.inputs.body;
    if (!found) return "undefined";
    const type = `NonNullable<${op(entry)}["requestBody"]>["content"]["application/json"]`;
    return found.required ? type : `${type} | undefined`;
  };
  const inputs = operations
    .map(
      (entry) =>
        `  ${JSON.stringify(entry.operationId)}: {\n` +
        ["path", "query", "header"].map((l) => `    ${l}: ${parameters(entry, l)};\n`).join("") +
        `    body: ${body(entry)};\n  };`,
    )
    .join("\n");
  const lines = [
    header(name).trimEnd(),
    "",
    `import type { operations as Operations } from "./${name}.js";`,
    'import type { CompiledSchema, OperationValidators, WithDefaults } from "./validator-types.js";',
    "",
    `/** Each path of openapi/${name}.yaml, its methods, and the operationId of each. */`,
    `export declare const routes: {\n${routes}\n};`,
    "",
    "/** What each operation takes once its inputs passed their validators (defaults filled in). */",
    `export interface OperationInputs {\n${inputs}\n}`,
    "",
    "/** The validators of every operation, by operationId. */",
    "export declare const operations: { readonly [Id in keyof OperationInputs]: OperationValidators };",
    "",
    "/** Component schemas compiled on their own. */",
    `export declare const schemas: Readonly<{ ${schemas.map((s) => `${s}: CompiledSchema;`).join(" ")} }>;`,
    "",
    "/** What each pattern of the document means, from its `x-pattern-description` (a noun phrase). */",
    "export declare const patternDescriptions: Readonly<Record<string, string>>;",
    "",
  ];
  return lines.join("\n");
}

const VALIDATOR_TYPES = `// Generated by \`npm run generate\`: the types of the request validators (src/generated/*-validators.js).
// Do not edit by hand. See scripts/generate/validators.mjs.

/** One problem a compiled schema found (Ajv's error object, the fields the mock reads). */
export interface SchemaIssue {
  keyword: string;
  /** JSON Pointer of the value, \`""\` for the root. */
  instancePath: string;
  schemaPath: string;
  params: Readonly<Record<string, unknown>>;
  /** Set when the issue is with a property's name (\`propertyNames\`). */
  propertyName?: string;
}

/** A compiled schema: true when \`data\` is valid, else \`errors\` says why. Fills in \`default\`s. */
export interface CompiledSchema {
  (data: unknown): boolean;
  errors?: SchemaIssue[] | null;
}

/** How a parameter's text is read before its schema checks it. */
export type ParameterType = "string" | "integer" | "number" | "boolean";

/** The parameters of one location, checked together as one object keyed by their names. */
export interface ParameterValidator {
  validate: CompiledSchema;
  parameters: readonly { name: string; type: ParameterType; required: boolean }[];
}

/** \`T\` with the keys \`K\`, which have a \`default\`, always present once validated. */
export type WithDefaults<T, K extends keyof T> = Omit<T, K> & Required<Pick<T, K>>;

/** What the contract says an operation takes. */
export interface OperationValidators {
  method: string;
  /** The path template, as the document writes it. */
  template: string;
  path?: ParameterValidator;
  query?: ParameterValidator;
  header?: ParameterValidator;
  /** The JSON request body; \`required\` as the document's requestBody says. */
  body?: { validate: CompiledSchema; required: boolean };
}
`;
