// Compiles the contract's JSON Schemas into the compact shapes of src/core/shape.ts. Component
// names never matter: every `$ref` is followed and written out in full.
//
// Two profiles:
// - "lenient" (the SDK's response checks): JSON types, required and known properties, array items,
//   discriminated alternatives, fields that must be absent. Enum and const values are left out
//   (a discriminator's values become the keys of its alternatives), so a new value the API adds is
//   tolerated; constraints (formats, lengths, ranges, patterns) are left to the server.
// - "exact" (the webhook receiver): everything the schema says, constraints included, so the
//   receiver accepts exactly what the contract accepts.
// A keyword neither profile knows stops the generation: a new contract feature must be decided on,
// not silently ignored.

const ANNOTATIONS = new Set([
  "$comment",
  "$id",
  "$schema",
  "default",
  "deprecated",
  "description",
  "example",
  "examples",
  "externalDocs",
  "readOnly",
  "title",
  "writeOnly",
  "xml",
]);

/**
 * Keywords an exact shape carries in `k`; src/webhooks/exact-check.ts checks each of them.
 * @public test/sdk/webhooks/contract.test.ts imports this script by a variable path (knip cannot see it).
 */
export const CONSTRAINTS = [
  "format",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "dependentRequired",
  "additionalProperties",
];

/**
 * Formats an exact shape may name: those src/core/formats.ts implements (one implementation for the
 * generated validators and the webhook receiver).
 * @public imported by a variable path, as CONSTRAINTS.
 */
export const FORMATS = ["date-time", "ipv4", "ipv6", "iri", "uri", "uuid"];

const STRUCTURE = new Set([
  "type",
  "properties",
  "required",
  "items",
  "oneOf",
  "anyOf",
  "allOf",
  "discriminator",
  "const",
  "enum",
  "not",
  "$ref",
]);

const TYPES = ["object", "array", "string", "integer", "number", "boolean", "null"];

/** `#/a/b` in `document`; an Error when nothing is there. */
export function pointer(document, ref) {
  if (!ref.startsWith("#/")) throw new Error(`only local $refs are supported, not ${ref}`);
  let node = document;
  for (const part of ref.slice(2).split("/")) {
    node = node?.[part.replaceAll("~1", "/").replaceAll("~0", "~")];
    if (node === undefined) throw new Error(`$ref ${ref} points nowhere`);
  }
  return node;
}

/** The JSON types a `const` or `enum` value list implies. */
function typesOf(values) {
  return [
    ...new Set(
      values.map((v) =>
        v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "number" ? "number" : typeof v,
      ),
    ),
  ];
}

/**
 * The shape of `schema` (resolved against `document`) under `profile` ("lenient" | "exact").
 * `where` names the schema in error messages. With `origin` (lenient success responses: `{ pointer }`
 * of the schema, `response` the response's mark when it is marked `x-assumed`: see successResponses), every
 * node compiled from an element marked `x-assumed: true` carries its JSON pointer in `a`
 * (decisions/039): items and inline alternatives without a mark of their own take their parent's,
 * the body's root the response's.
 */
export function compileShape(document, schema, profile, where, origin) {
  const exact = profile === "exact";
  const stack = [];

  function compile(node, at, ptr, inherited) {
    const shape = build(node, at, ptr);
    // Marks only where asked for (the SDK's tables), and only on a node that can carry one.
    if (origin && shape) {
      const mark = node?.["x-assumed"] === true ? ptr : undefined;
      const a = mark ?? shape.a ?? inherited;
      if (a) shape.a = a;
    }
    return shape;
  }

  function build(node, at, ptr) {
    if (node === true) return {};
    if (node === false) return false;
    if (node === null || typeof node !== "object") throw new Error(`${at}: not a schema`);
    if (node.$ref !== undefined) {
      if (stack.includes(node.$ref)) throw new Error(`${at}: recursive schemas are not supported`);
      const rest = Object.fromEntries(
        Object.entries(node).filter(([key]) => key !== "$ref" && !isAnnotation(key)),
      );
      stack.push(node.$ref);
      // A $ref property's own mark (compile) wins over its target's.
      const target = compile(pointer(document, node.$ref), node.$ref, node.$ref.slice(1));
      stack.pop();
      if (Object.keys(rest).length > 0) {
        throw new Error(`${at}: keywords beside $ref (${Object.keys(rest).join(", ")}) are not supported`);
      }
      return target;
    }
    for (const key of Object.keys(node)) {
      if (isAnnotation(key) || STRUCTURE.has(key)) continue;
      if (!CONSTRAINTS.includes(key)) throw new Error(`${at}: the keyword "${key}" is not supported`);
    }
    if (node.not !== undefined) {
      const others = Object.keys(node).filter((key) => key !== "not" && !isAnnotation(key));
      if (typeof node.not !== "object" || Object.keys(node.not).length > 0 || others.length > 0) {
        throw new Error(`${at}: only "not: {}" (nothing allowed) is supported`);
      }
      return false;
    }
    const shape = {};
    const types = node.type === undefined ? [] : [node.type].flat();
    for (const type of types) {
      if (!TYPES.includes(type)) throw new Error(`${at}: unknown type ${type}`);
    }
    const values = node.const !== undefined ? [node.const] : node.enum;
    const allowed = [...(types.length ? types : values ? typesOf(values) : [])];
    // An integer is a number: the interpreter then needs no special case.
    if (allowed.includes("number") && !allowed.includes("integer")) allowed.push("integer");
    // Written as the message names them: "string or null".
    if (allowed.length) shape.t = allowed.join(" or ");
    if (exact) {
      if (node.const !== undefined) shape.c = node.const;
      else if (node.enum?.length === 1) shape.c = node.enum[0];
      else if (node.enum !== undefined) shape.e = node.enum;
    }
    // Required properties first, so that `r` can be a count (property names are written once).
    const required = node.required ?? [];
    const names = [...new Set([...required, ...Object.keys(node.properties ?? {})])];
    if (names.length) {
      shape.p = {};
      for (const name of names) {
        const sub = node.properties?.[name];
        shape.p[name] =
          sub === undefined
            ? {}
            : compile(sub, `${at}.properties.${name}`, `${ptr}/properties/${pointerToken(name)}`);
      }
      if (Object.keys(shape.p).join("\n") !== names.join("\n")) {
        throw new Error(`${at}: property names that look like array indexes are not supported`);
      }
      if (required.length) shape.r = new Set(required).size;
    }
    const own = origin && node["x-assumed"] === true ? ptr : undefined;
    if (node.items !== undefined) shape.i = compile(node.items, `${at}.items`, `${ptr}/items`, own);
    const alternatives = node.oneOf ?? node.anyOf;
    if (alternatives) {
      // Only discriminated unions: the discriminator's value picks the alternative, so a check
      // never guesses which one was meant.
      const property = node.discriminator?.propertyName;
      if (!property || (node.oneOf && node.anyOf)) {
        throw new Error(`${at}: a oneOf or anyOf needs a discriminator`);
      }
      shape.d = property;
      shape.m = {};
      alternatives.forEach((alt, n) => {
        const resolved = alt.$ref ? pointer(document, alt.$ref) : alt;
        const tagSchema = resolved.properties?.[property];
        const prop = tagSchema?.$ref ? pointer(document, tagSchema.$ref) : tagSchema;
        const tags = prop?.const !== undefined ? [prop.const] : prop?.enum;
        if (!tags?.every((tag) => typeof tag === "string")) {
          throw new Error(`${at}: every alternative needs string const or enum values for ${property}`);
        }
        const kind = node.oneOf ? "oneOf" : "anyOf";
        const compiled = compile(alt, `${at}.${kind}.${n}`, `${ptr}/${kind}/${n}`, own);
        for (const tag of tags) {
          if (tag in shape.m) throw new Error(`${at}: two alternatives share the ${property} ${tag}`);
          shape.m[tag] = compiled;
        }
      });
    }
    if (node.allOf) throw new Error(`${at}: allOf is not supported here (write the object out)`);
    if (exact) {
      const k = {};
      for (const key of CONSTRAINTS) {
        if (node[key] === undefined) continue;
        if (key === "format" && !FORMATS.includes(node.format)) {
          throw new Error(
            `${at}: format "${node.format}" is not supported (add it to FORMATS and the receiver)`,
          );
        }
        if (key === "additionalProperties" && node[key] !== false) {
          if (node[key] === true || Object.keys(node[key]).length === 0) continue;
          throw new Error(`${at}: additionalProperties other than true or false is not supported`);
        }
        k[key] = node[key];
      }
      if (Object.keys(k).length) shape.k = k;
    }
    return shape;
  }

  return compile(schema, where, origin?.pointer, origin?.response);
}

/** `name` as one token of a JSON pointer (RFC 6901). */
function pointerToken(name) {
  return name.replaceAll("~", "~0").replaceAll("/", "~1");
}

function isAnnotation(key) {
  return ANNOTATIONS.has(key) || key.startsWith("x-");
}

/**
 * Every success response (2xx) of every operation: `{ "GET /path": { "200": { schema, pointer,
 * response } | null } }`: the JSON body's schema and its JSON pointer, and when the response is
 * marked `x-assumed`, `true` (the operation's own response) or the pointer of the `$ref`'d one.
 */
export function successResponses(document) {
  const out = {};
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of ["get", "put", "post", "delete", "patch", "head", "options", "trace"]) {
      const operation = item[method];
      if (!operation) continue;
      const byStatus = {};
      for (const [status, raw] of Object.entries(operation.responses ?? {})) {
        if (status === "2XX")
          throw new Error(`${method} ${path}: a 2XX range is not supported; list the statuses`);
        if (!/^2\d\d$/.test(status)) continue;
        const at = raw.$ref
          ? raw.$ref.slice(1)
          : `/paths/${pointerToken(path)}/${method}/responses/${status}`;
        const response = raw.$ref ? pointer(document, raw.$ref) : raw;
        const json = Object.entries(response.content ?? {}).find(([type]) => /[/+]json\b/.test(type));
        byStatus[status] = json
          ? {
              schema: json[1].schema ?? true,
              pointer: `${at}/content/${pointerToken(json[0])}/schema`,
              // The SDK writes the pointer of an operation's own response itself (`a: true`).
              response: response["x-assumed"] === true ? (raw.$ref ? at : true) : undefined,
            }
          : null;
      }
      out[`${method.toUpperCase()} ${path}`] = byStatus;
    }
  }
  return out;
}

/** Every webhook's JSON request body: `{ name: schema }`. */
export function webhookBodies(document) {
  const out = {};
  for (const [name, item] of Object.entries(document.webhooks ?? {})) {
    const body = item.post?.requestBody;
    const resolved = body?.$ref ? pointer(document, body.$ref) : body;
    const json = Object.entries(resolved?.content ?? {}).find(([type]) => /[/+]json\b/.test(type));
    if (!json) throw new Error(`webhook ${name} has no JSON body`);
    out[name] = json[1].schema;
  }
  return out;
}

/** TypeScript source declaring `exports` (`{ name, type, doc, value }`), values written out in full. */
export function emitShapes(exports, header) {
  const render = (value) => {
    if (value === null || typeof value !== "object") return JSON.stringify(value);
    if (Array.isArray(value)) return `[${value.map(render).join(", ")}]`;
    const entries = Object.entries(value).map(
      ([key, v]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${render(v)}`,
    );
    return `{ ${entries.join(", ")} }`;
  };
  const declared = exports.map(
    ({ name, type, doc, value }) =>
      `${doc ? `/** ${doc} */\n` : ""}export const ${name}: ${type} = ${render(value)};`,
  );
  return `${header}${declared.join("\n\n")}\n`;
}
