// One operation registry per document (decisions/049): src/generated/<doc>-operations.ts, what the
// mock's dispatcher and routes read instead of restating the contract. For each operation its
// operationId, method, path template, success statuses, the status of each error code it can
// answer, the largest body it reads and (where the document states them) its 401 challenges; for
// the document its base path, the path prefix below it that is the API's, the status of every error
// code, the response headers it documents, the header of each security scheme, the request headers
// its operations read, the header carrying each value an error answer adds, and the rebuild API's
// rate-limit headers and callback retry delays. For the SDK, src/generated/headers.ts holds the few
// header names it needs as separate small constants (its clients' bundle is measured).
//
// What no OpenAPI keyword states is read from the document's `x-` extensions: `x-body-limit`
// (document, or an operation's own), `x-path-prefix`, `x-error-statuses` (the status of each code
// that no response's schema narrows to one `error.code`), `x-rate-limit` (on a header: which number
// of the rate window it carries), `x-carries` (on a header: which value of an error answer it
// carries, `retry-after` or `allowed-methods`), `x-challenges` (on a `WWW-Authenticate` header
// whose schema allows several values: the one for each case), `x-callback-retry-delays` (on a
// webhook). A code a schema states and the table restates, a code without a status, a code with two
// statuses in two documents, a challenge its header's schema refuses, or a value two headers carry,
// fails the generation.
import { pointer } from "./shapes.mjs";

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

/** `{ path, content }` of src/generated/<doc>-operations.ts for each document `{ name, document }`. */
export function generateOperations(documents) {
  const byFile = new Map(documents.map(({ name, document }) => [`./${name}.yaml`, document]));
  const seen = new Map();
  const carried = new Map();
  const registries = new Map();
  const files = documents.map(({ name, document }) => {
    const registry = registryOf(name, document, byFile);
    registries.set(name, registry);
    for (const [value, header] of Object.entries(registry.carriedHeaders)) {
      const before = carried.get(value);
      if (before && before.header !== header) {
        throw new Error(
          `operations: ${value} is carried by ${header} in openapi/${name}.yaml but ${before.header} in openapi/${before.name}.yaml`,
        );
      }
      carried.set(value, { header, name });
    }
    for (const [code, status] of Object.entries(registry.errorStatuses)) {
      const before = seen.get(code);
      if (before && before.status !== status) {
        throw new Error(
          `operations: ${code} is ${status} in openapi/${name}.yaml but ${before.status} in openapi/${before.name}.yaml`,
        );
      }
      seen.set(code, { status, name });
    }
    return { path: `src/generated/${name}-operations.ts`, content: render(name, registry) };
  });
  return [...files, sdkHeaders(registries)];
}

function registryOf(name, document, byFile) {
  const where = `openapi/${name}.yaml`;
  const resolve = (node, from = document) => {
    if (!node || typeof node.$ref !== "string") return { node, from };
    const [file, fragment] = node.$ref.split("#");
    const target = file ? byFile.get(file) : from;
    if (!target) throw new Error(`operations: ${where} refers to ${file}, which is not generated with it`);
    return resolve(pointer(target, `#${fragment}`), target);
  };

  /** The values `error.code` may take under a schema, or undefined when it is not an error envelope. */
  const codesOf = (schema, from = document) => {
    const { node, from: at } = resolve(schema, from);
    if (!node || typeof node !== "object") return undefined;
    let codes;
    for (const branch of node.allOf ?? []) {
      const more = codesOf(branch, at);
      if (more) codes = codes ? codes.filter((code) => more.includes(code)) : more;
    }
    const error = node.properties?.error && resolve(node.properties.error, at);
    const code = error?.node?.properties?.code && resolve(error.node.properties.code, error.from).node;
    if (code) {
      const own = code.const !== undefined ? [code.const] : code.enum;
      if (own) codes = codes ? codes.filter((c) => own.includes(c)) : [...own];
    }
    return codes;
  };

  const failures = [];
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of METHODS) {
      for (const [status, given] of Object.entries(item[method]?.responses ?? {})) {
        const response = resolve(given).node;
        const codes = codesOf(response?.content?.["application/json"]?.schema, resolve(given).from);
        if (codes) failures.push({ status, codes });
      }
    }
  }

  // A code one response's schema narrows to itself has that response's status.
  const stated = {};
  for (const { status, codes } of failures) {
    if (!/^\d{3}$/.test(status) || codes.length !== 1) continue;
    const [code] = codes;
    if (stated[code] !== undefined && stated[code] !== Number(status)) {
      throw new Error(`operations: ${where} states ${code} as ${stated[code]} and ${status}`);
    }
    stated[code] = Number(status);
  }
  const table = document["x-error-statuses"] ?? {};
  for (const code of Object.keys(table)) {
    if (stated[code] !== undefined) {
      throw new Error(
        `operations: ${where} x-error-statuses restates ${code}, which a response's schema states`,
      );
    }
  }
  const errorStatuses = { ...table, ...stated };
  for (const code of new Set(failures.flatMap(({ codes }) => codes))) {
    if (errorStatuses[code] === undefined) throw new Error(`operations: ${where} gives ${code} no status`);
  }
  for (const code of Object.keys(table)) {
    if (!failures.some(({ codes }) => codes.includes(code))) {
      throw new Error(`operations: ${where} x-error-statuses names ${code}, which no response answers`);
    }
  }

  const bodyLimit = document["x-body-limit"];
  if (!Number.isInteger(bodyLimit)) throw new Error(`operations: ${where} has no x-body-limit`);
  const pathPrefix = document["x-path-prefix"] ?? "";

  // The header each security scheme is sent in: an apiKey's `name`; an http scheme (bearer, basic)
  // is always sent in Authorization (RFC 9110 §11.6.2). A scheme sent any other way has no header.
  const credentialHeaders = {};
  for (const [scheme, spec] of Object.entries(document.components?.securitySchemes ?? {})) {
    if (spec.type === "apiKey" && spec.in === "header") credentialHeaders[scheme] = spec.name;
    else if (spec.type === "http") credentialHeaders[scheme] = "Authorization";
    else throw new Error(`operations: ${where} security scheme ${scheme} is not sent in a header`);
  }
  const schemeHeaders = (requirements) =>
    (requirements ?? []).flatMap((requirement) =>
      Object.keys(requirement).map((scheme) => {
        const header = credentialHeaders[scheme];
        if (!header) throw new Error(`operations: ${where} requires ${scheme}, which it does not define`);
        return header;
      }),
    );
  // The request headers the operations read: credentials, header parameters, and Content-Type
  // (RFC 9110 §8.3) where a request has a body.
  const requestHeaders = { credentials: new Set(), parameters: new Set(), body: new Set() };

  const operations = {};
  const responseHeaders = new Set();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith(pathPrefix))
      throw new Error(`operations: ${where} ${path} is outside ${pathPrefix}`);
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const responses = Object.entries(operation.responses ?? {});
      const listed = new Set(responses.map(([status]) => status));
      const errors = {};
      let challenge;
      let challenges;
      for (const header of schemeHeaders(operation.security ?? document.security)) {
        requestHeaders.credentials.add(header);
      }
      for (const given of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
        const parameter = resolve(given).node;
        if (parameter?.in === "header") requestHeaders.parameters.add(parameter.name);
      }
      if (operation.requestBody) requestHeaders.body.add("Content-Type");
      for (const [status, given] of responses) {
        const { node: response, from } = resolve(given);
        for (const header of Object.keys(response.headers ?? {})) responseHeaders.add(header);
        const codes = codesOf(response.content?.["application/json"]?.schema, from) ?? [];
        for (const code of codes) {
          const answered = errorStatuses[code];
          if (status === "default" ? !listed.has(String(answered)) : String(answered) === status) {
            errors[code] = answered;
          }
        }
        const authenticate = response.headers?.["WWW-Authenticate"];
        if (status === "401" && authenticate) {
          const header = resolve(authenticate, from);
          const schema = resolve(header.node.schema, header.from).node ?? {};
          if (typeof schema.const === "string") challenge = schema.const;
          const cases = header.node["x-challenges"];
          if (cases) {
            for (const [when, value] of Object.entries(cases)) {
              const allowed =
                typeof value === "string" &&
                (schema.const === undefined || schema.const === value) &&
                (schema.pattern === undefined || new RegExp(schema.pattern, "u").test(value));
              if (!allowed) {
                throw new Error(
                  `operations: ${where} ${operation.operationId} x-challenges ${when} is not a value of its WWW-Authenticate schema`,
                );
              }
            }
            challenges = cases;
          }
        }
      }
      const limit = operation["x-body-limit"] ?? bodyLimit;
      if (!Number.isInteger(limit))
        throw new Error(`operations: ${where} ${operation.operationId} x-body-limit`);
      operations[operation.operationId] = {
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path,
        successStatuses: responses
          .map(([status]) => status)
          .filter((status) => /^2\d\d$/.test(status))
          .map(Number),
        errors,
        bodyLimit: limit,
        ...(challenge === undefined ? {} : { challenge }),
        ...(challenges === undefined ? {} : { challenges }),
      };
    }
  }

  const carriedHeaders = {};
  const carry = (name, spec) => {
    const value = spec?.["x-carries"];
    if (value === undefined) return;
    const header = name.toLowerCase();
    if (carriedHeaders[value] !== undefined && carriedHeaders[value] !== header) {
      throw new Error(`operations: ${where} x-carries ${value} on ${carriedHeaders[value]} and ${header}`);
    }
    carriedHeaders[value] = header;
  };
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of METHODS) {
      for (const given of Object.values(item[method]?.responses ?? {})) {
        const { node: response, from } = resolve(given);
        for (const [name, spec] of Object.entries(response?.headers ?? {}))
          carry(name, resolve(spec, from).node);
      }
    }
  }

  const rateLimitHeaders = {};
  for (const [header, spec] of Object.entries(document.components?.headers ?? {})) {
    if (typeof spec["x-rate-limit"] === "string")
      rateLimitHeaders[spec["x-rate-limit"]] = header.toLowerCase();
  }
  const webhooks = {};
  for (const item of Object.values(document.webhooks ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const delays = operation["x-callback-retry-delays"];
      webhooks[operation.operationId] = {
        method: method.toUpperCase(),
        bodyLimit: operation["x-body-limit"] ?? bodyLimit,
        ...(Array.isArray(delays) ? { retryDelaysSeconds: delays } : {}),
      };
    }
  }

  const server = document.servers?.[0];
  const url = Object.entries(server?.variables ?? {}).reduce(
    (text, [variable, { default: value }]) => text.replaceAll(`{${variable}}`, value),
    server?.url ?? "/",
  );
  return {
    basePath: new URL(url, "http://base.invalid").pathname.replace(/\/+$/, ""),
    pathPrefix,
    bodyLimit,
    errorStatuses: Object.fromEntries(Object.entries(errorStatuses).sort(([, a], [, b]) => a - b)),
    responseHeaders: [...responseHeaders],
    credentialHeaders,
    requestHeaders: [
      ...new Set([...requestHeaders.credentials, ...requestHeaders.parameters, ...requestHeaders.body]),
    ],
    carriedHeaders,
    operations,
    ...(Object.keys(rateLimitHeaders).length > 0 ? { rateLimitHeaders } : {}),
    ...(Object.keys(webhooks).length > 0 ? { webhooks } : {}),
  };
}

function render(name, registry) {
  const json = (value) => JSON.stringify(value, null, 2);
  const lines = [
    `// Generated by \`npm run generate\` from openapi/${name}.yaml (scripts/generate/operations.mjs). Do not edit by hand.`,
    "",
    "/** The path of the document's first server URL (its variables' defaults): where the API is mounted. */",
    `export const basePath = ${json(registry.basePath)};`,
    "",
    "/** The path below the base that is this API's (`x-path-prefix`; empty: every path below the base). */",
    `export const pathPrefix = ${json(registry.pathPrefix)};`,
    "",
    "/** The largest request body, in bytes, of an operation that states none of its own (`x-body-limit`). */",
    `export const bodyLimit = ${registry.bodyLimit};`,
    "",
    "/** The status of each error code the document answers: from a response's schema, else `x-error-statuses`. */",
    `export const errorStatuses = ${json(registry.errorStatuses)} as const;`,
    "",
    "/** Every response header the document documents, as it spells them. */",
    `export const responseHeaders: readonly string[] = ${json(registry.responseHeaders)};`,
    "",
    "/** The header each security scheme is sent in, as the document spells it (an http scheme's: Authorization). */",
    `export const credentialHeaders = ${json(registry.credentialHeaders)} as const;`,
    "",
    "/** The request headers the operations read: their schemes' credentials, header parameters, Content-Type of a body. */",
    `export const requestHeaders: readonly string[] = ${json(registry.requestHeaders)};`,
    "",
    "/** The header (lower case) carrying each value an error answer adds (`x-carries` on the header). */",
    `export const carriedHeaders = ${json(registry.carriedHeaders)} as const;`,
    "",
    "/**",
    " * Each operation by operationId: method, path template, success statuses, the status of each error",
    " * code it can answer, the largest body it reads, and the 401 challenge when the document states one",
    " * (`challenge`: its only value; `challenges`: the value for each case, from `x-challenges`).",
    " */",
    `export const operations = ${json(registry.operations)} as const;`,
  ];
  if (registry.rateLimitHeaders) {
    lines.push(
      "",
      "/** The header (lower case) carrying each number of the rate window (`x-rate-limit` on the header). */",
      `export const rateLimitHeaders = ${json(registry.rateLimitHeaders)} as const;`,
    );
  }
  if (registry.webhooks) {
    lines.push(
      "",
      "/** Each webhook by operationId: method, largest body, and the waits between attempts (`x-callback-retry-delays`). */",
      `export const webhooks = ${json(registry.webhooks)} as const;`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * src/generated/headers.ts: the header names the SDK sends or reads, lower case, each a separate
 * small constant taken from the registries above, so a client imports only what it uses and the
 * clients' bundle never carries a registry (test/sdk/clients/bundle.test.ts).
 */
function sdkHeaders(registries) {
  const rebuild = registries.get("rebuild");
  const scheme = (name) => {
    const header = rebuild?.credentialHeaders[name];
    if (!header) throw new Error(`operations: openapi/rebuild.yaml has no security scheme ${name}`);
    return header.toLowerCase();
  };
  const retryAfter = [...registries.values()].find((r) => r.carriedHeaders["retry-after"]);
  const window = rebuild?.rateLimitHeaders ?? {};
  if (!retryAfter || !window.limit || !window.remaining || !window.reset) {
    throw new Error(
      "operations: the documents state no Retry-After or RateLimit headers (x-carries, x-rate-limit)",
    );
  }
  const credentials = new Set(
    [...registries.values()].flatMap((r) => Object.values(r.credentialHeaders).map((h) => h.toLowerCase())),
  );
  const constants = [
    [
      "REBUILD_PARTNER_ID_HEADER",
      scheme("partnerId"),
      "The rebuild API's partner id (openapi/rebuild.yaml security scheme `partnerId`).",
    ],
    [
      "REBUILD_API_KEY_HEADER",
      scheme("apiKey"),
      "The rebuild API key (openapi/rebuild.yaml security scheme `apiKey`).",
    ],
    [
      "WEBHOOK_API_KEY_HEADER",
      scheme("webhookApiKey"),
      "The key a rebuild callback carries (openapi/rebuild.yaml security scheme `webhookApiKey`).",
    ],
    ["CREDENTIAL_HEADERS", [...credentials], "The header of every security scheme of every document."],
    [
      "RATE_LIMIT_HEADERS",
      [window.limit, window.remaining, window.reset],
      "The rate window's limit, remaining and reset headers (openapi/rebuild.yaml `x-rate-limit`).",
    ],
    [
      "RETRY_AFTER_HEADER",
      retryAfter.carriedHeaders["retry-after"],
      "The wait before a retry (`x-carries: retry-after`).",
    ],
  ];
  const lines = [
    "// Generated by `npm run generate` from openapi/ (scripts/generate/operations.mjs). Do not edit by hand.",
  ];
  for (const [name, value, doc] of constants) {
    const text = JSON.stringify(value);
    lines.push(
      "",
      `/** ${doc} */`,
      `export const ${name} = ${Array.isArray(value) ? `${text} as const` : text};`,
    );
  }
  return { path: "src/generated/headers.ts", content: `${lines.join("\n")}\n` };
}
