// zod 4 schemas of the service contracts (decisions/041), for `rebuild-dashboard-kit/zod`: one per
// component schema (`z` + its name), per operation's request and response and per webhook, emitted by
// @hey-api/openapi-ts's zod plugin. Its resolvers (hooks) add what the plugin does not translate, so
// that each schema refuses exactly what the contract refuses:
// - `additionalProperties: false` → `z.strictObject` (the plugin strips unknown fields instead), and a
//   discriminated `oneOf` as the plain union of its branches (see `annotate`);
// - a field that must be absent (`not: {}`, decisions/022) → `z.never()` (the plugin reads "anything");
// - `dependentRequired`, and "at most one" (`contains` + `maxContains: 1`) item with a property value
//   (each claim name at most once) → a refinement from src/zod/contract-checks.ts;
// - every `format` → the contract's own format check (src/core/formats.ts, which the mock's
//   validators use): `uuid` is any GUID, not only RFC-variant UUIDs, `date-time` takes any offset
//   (`+00:00` as the services send it), `iri` has no zod counterpart at all;
// - string lengths in code points, and patterns with the `u` flag, as JSON Schema (and Ajv) count.
// The plugin's IR drops `not`, `dependentRequired` and `contains`; `annotate` carries them across in
// `x-zod-*` extensions, which the IR keeps, on a copy of the document.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@hey-api/openapi-ts";

const CHECKS = "contract";
const CHECKS_IMPORT = `import * as ${CHECKS} from "../zod/contract-checks.js";`;

const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

/** `{ property: value }` when `schema` matches exactly the objects whose `property` is `value`. */
function propertyValue(schema) {
  const [property, ...more] = Object.keys(schema.properties ?? {});
  const rule = property === undefined ? undefined : schema.properties[property];
  const value = rule?.const ?? rule?.enum?.[0];
  if (more.length > 0 || schema.required?.length !== 1 || schema.required[0] !== property) return undefined;
  if (typeof value !== "string" || (rule.enum && rule.enum.length !== 1)) return undefined;
  return { property, value };
}

/**
 * `{ property, value }` when `part` says "at most one item whose `property` is `value`":
 * `if: { contains: X }, then: { contains: X, maxContains: 1 }` (each claim name at most once).
 */
function atMostOne(part) {
  const { if: given, then, ...more } = part;
  if (Object.keys(more).length > 0 || !isObject(given?.contains) || Object.keys(given).length !== 1)
    return undefined;
  if (!isObject(then?.contains) || then.maxContains !== 1 || Object.keys(then).length !== 2) return undefined;
  const counted = propertyValue(then.contains);
  const condition = propertyValue(given.contains);
  if (!counted || counted.property !== condition?.property || counted.value !== condition.value)
    return undefined;
  return counted;
}

/** A copy of `node` with what the plugin's IR drops written as `x-zod-*` extensions. */
function annotate(node, pointer = "") {
  if (Array.isArray(node)) return node.map((item, index) => annotate(item, `${pointer}/${index}`));
  if (!isObject(node)) return node;
  if (Object.keys(node).length === 1 && isObject(node.not) && Object.keys(node.not).length === 0) {
    return { "x-zod-absent": true };
  }
  const copy = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "example" || key === "examples") copy[key] = value;
    else copy[key] = annotate(value, `${pointer}/${key}`);
  }
  // With a `discriminator` the plugin writes each branch `z.object({ tag }).and(zBranch)`, and a
  // strip-mode object beside a strict one silences the strict one's unknown keys (zod reports a key
  // only when both sides refuse it). Every branch of the contract pins its own tag, so the plain
  // union of the branches says the same, strictly.
  if (isObject(node.discriminator) && Array.isArray(node.oneOf)) delete copy.discriminator;
  if (isObject(node.dependentRequired)) {
    copy["x-zod-dependent-required"] = node.dependentRequired;
    delete copy.dependentRequired;
  }
  if (node.type === "array" && Array.isArray(node.allOf)) {
    const once = node.allOf.map((part) => {
      const counted = atMostOne(part);
      if (!counted) throw new Error(`${pointer}: only "at most one item with this value" is translated`);
      return counted;
    });
    const property = once[0]?.property;
    if (once.some((rule) => rule.property !== property)) throw new Error(`${pointer}: one property only`);
    copy["x-zod-at-most-once"] = { property, values: once.map((rule) => rule.value) };
    delete copy.allOf;
  }
  return copy;
}

/** `chain.<name>(...args)` as the plugin's DSL writes it. */
const call = (chain, name, ...args) => chain.attr(name).call(...args);
/** `contract.<name>(...values)`: a refinement from src/zod/contract-checks.ts. */
const check = ($, name, ...values) =>
  $(CHECKS)
    .attr(name)
    .call(...values.map((value) => $.fromValue(value)));

const resolvers = {
  unknown(ctx) {
    if (ctx.schema["x-zod-absent"]) return call(ctx.$(ctx.symbols.z), "never");
    return undefined;
  },
  string(ctx) {
    const { $, schema, symbols } = ctx;
    const constant = ctx.nodes.const(ctx);
    if (constant) return constant;
    let chain = call($(symbols.z), "string");
    if (schema.format) chain = call(chain, "superRefine", check($, "format", schema.format));
    if (schema.minLength !== undefined || schema.maxLength !== undefined) {
      chain = call(chain, "superRefine", check($, "length", schema.minLength ?? 0, schema.maxLength ?? null));
    }
    if (schema.pattern) chain = call(chain, "regex", $.regexp(schema.pattern, "u"));
    return chain;
  },
  object(ctx) {
    const { $, schema, symbols } = ctx;
    let chain;
    // The IR writes `additionalProperties: false` as a schema of type `never`.
    if (schema.additionalProperties?.type === "never")
      chain = call($(symbols.z), "strictObject", ctx.nodes.shape(ctx));
    else chain = ctx.nodes.base(ctx);
    const dependent = schema["x-zod-dependent-required"];
    if (dependent) chain = call(chain, "superRefine", check($, "dependentRequired", dependent));
    return chain;
  },
  array(ctx) {
    const once = ctx.schema["x-zod-at-most-once"];
    if (!once) return undefined;
    // The default array resolver, then the refinement.
    let chain = ctx.nodes.base(ctx);
    const min = ctx.nodes.minLength(ctx);
    if (min) chain = min;
    const max = ctx.nodes.maxLength(ctx);
    if (max) chain = max;
    return call(chain, "superRefine", check(ctx.$, "atMostOnce", once.property, once.values));
  },
};

/** One file per document: src/generated/<name>-zod.ts. */
export async function generateZod(documents) {
  const files = [];
  for (const { name, document } of documents) {
    const output = await mkdtemp(join(tmpdir(), `zod-${name}-`));
    try {
      await createClient({
        input: annotate(document),
        output: { path: output },
        plugins: [{ name: "zod", "~resolvers": resolvers }],
        logs: { level: "silent" },
      });
      const generated = await readFile(join(output, "zod.gen.ts"), "utf8");
      const importZod = "import * as z from 'zod';\n";
      if (!generated.includes(importZod)) throw new Error("the zod plugin's import line changed");
      const body = generated
        .replace(/^\/\/ This file is auto-generated by @hey-api\/openapi-ts\n\n/, "")
        .replace(importZod, `${importZod}${CHECKS_IMPORT}\n`);
      const header =
        `// Generated by \`npm run generate\` from openapi/${name}.yaml with @hey-api/openapi-ts's zod ` +
        "plugin and\n// scripts/generate/zod.mjs. Do not edit by hand.\n\n";
      files.push({ path: join("src", "generated", `${name}-zod.ts`), content: header + documented(body) });
    } finally {
      await rm(output, { recursive: true, force: true });
    }
  }
  return files;
}

/**
 * The plugin writes a schema's description as its comment; an operation's parameters, and a
 * response or webhook body whose schema has none, come without one. Each export gets a line saying
 * what it is (the API reference documents every export: scripts/docs-sdk.ts).
 */
function documented(body) {
  const parts = [
    [/^z(\w+)Query$/, (op) => `The query parameters of ${op}.`],
    [/^z(\w+)Path$/, (op) => `The path parameters of ${op}.`],
    [/^z(\w+)Headers$/, (op) => `The header parameters of ${op}.`],
    [/^z(\w+)Body$/, (op) => `The request body of ${op}.`],
    [/^z(\w+)Response$/, (op) => `The success response body of ${op}.`],
    [/^z(\w+)WebhookRequest$/, (op) => `The body of the ${op} webhook.`],
  ];
  return body.replace(/(^|\n)(\n)export const (z\w+) =/g, (line, start, blank, name) => {
    for (const [pattern, say] of parts) {
      const op = pattern.exec(name)?.[1];
      if (op)
        return `${start}${blank}/** ${say(op.charAt(0).toLowerCase() + op.slice(1))} */\nexport const ${name} =`;
    }
    return line;
  });
}
