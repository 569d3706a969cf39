// Generators of bad requests for every operation of both APIs and for the control API. Each starts
// from a valid request of the default seed and breaks it one way; `expected` is the status the
// contract's check order decides when the break alone decides it (contract-decisions: 404 → 405 →
// 401 → 403 → 429 → 413 → 415 → 400 → the operation's rules).
import fc from "fast-check";
import { PARTNER, SERVER_1, TOKEN } from "../support/default-seed.js";
import type { RawRequest } from "../support/raw-http.js";
import {
  deepNesting,
  headerText,
  type JsonType,
  notJson,
  notJsonMediaType,
  oversized,
  q,
  unicodeText,
  withInvalidUtf8,
  wrongType,
} from "./hostile-values.js";

export interface HostileRequest extends RawRequest {
  /** What makes it bad: the tally's key and the first line of a failure report. */
  kind: string;
  /** The status the break alone decides, when it does. */
  expected?: number;
}

type Header = readonly [string, string];
type Json = Record<string, unknown>;

const REBUILDS = "/api/integration/partners/hostpanel/rebuilds";
const bearer = (token: string): Header => ["authorization", `Bearer ${token}`];
const OWNER = bearer(TOKEN.unrestricted);
const JSON_TYPE: Header = ["content-type", "application/json"];
const PARTNER_OK: Header[] = [
  ["x-partner-id", PARTNER.ok.id],
  ["x-api-key", PARTNER.ok.apiKey],
];
const KNOWN_PARTNERS = new Set(["1001", "1002", "1003"]);

const label = fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/);

/** One field of a body: where it is and which JSON types it may have. */
interface Field {
  path: (string | number)[];
  types: JsonType[];
  required: boolean;
  /** Values of the right type that the operation's rules refuse (huge, unicode, out of range). */
  refused: fc.Arbitrary<unknown>;
}

/** A public operation that takes a JSON body, with a generator of valid bodies. */
interface BodyOperation {
  name: "connectServers" | "createApiToken" | "sendInvitations" | "submitRebuild";
  path: string;
  credentials: Header[];
  valid: fc.Arbitrary<Json>;
  fields: Field[];
}

const notUrl = unicodeText(40).filter((text) => !text.includes("://"));
const longText = (min: number) =>
  fc
    .tuple(fc.integer({ min, max: min * 4 }), fc.constantFrom("x", "é", "😀", "\u{10ffff}"))
    .map(([n, c]) => c.repeat(n));

const server = fc.record({
  address: label.map((host) => `https://${host}.example.com:8443`),
  product: fc.constantFrom("plesk", "cpanel", "other"),
});
const claim = fc.oneof(
  fc.constant({ name: "manage-api-tokens" }),
  fc.record({
    name: fc.constant("mcp"),
    readonly: fc.boolean(),
    attributes: fc.constant({ serverGuid: SERVER_1 }),
  }),
);

const BODY_OPERATIONS: BodyOperation[] = [
  {
    name: "connectServers",
    path: "/v1/si/servers",
    credentials: [OWNER],
    valid: fc.record({ servers: fc.array(server, { minLength: 1, maxLength: 3 }) }),
    fields: [
      {
        path: ["servers"],
        types: ["array"],
        required: true,
        refused: fc.array(server, { minLength: 101, maxLength: 120 }),
      },
      { path: ["servers", 0], types: ["object"], required: false, refused: fc.constant({}) },
      {
        path: ["servers", 0, "address"],
        types: ["string"],
        required: true,
        refused: fc.oneof(notUrl, longText(2049)),
      },
      {
        path: ["servers", 0, "product"],
        types: ["string"],
        required: true,
        refused: fc.oneof(fc.constant(""), longText(101)),
      },
    ],
  },
  {
    name: "createApiToken",
    path: "/v1/dashboard/api-tokens",
    credentials: [OWNER],
    valid: fc.record({
      name: label,
      claims: fc.uniqueArray(claim, { maxLength: 2, selector: (c) => c.name }),
    }),
    fields: [
      {
        path: ["name"],
        types: ["string"],
        required: true,
        refused: fc.oneof(fc.constantFrom("", "   ", "\t\n"), longText(101)),
      },
      {
        path: ["claims"],
        types: ["array"],
        required: true,
        refused: fc.constant([{ name: "mcp" }, { name: "mcp" }]),
      },
      {
        path: ["claims", 0],
        types: ["object"],
        required: false,
        refused: fc.oneof(
          unicodeText(20)
            .filter((name) => name !== "mcp" && name !== "manage-api-tokens")
            .map((name) => ({ name })),
          fc.constant({ name: "mcp", attributes: { panelUser: "admin" } }),
          fc.constant({ name: "mcp", attributes: { serverGuid: "not-a-guid" } }),
          fc.constant({ name: "manage-api-tokens", attributes: { serverGuid: SERVER_1 } }),
        ),
      },
      {
        path: ["claims", 0, "name"],
        types: ["string"],
        required: true,
        refused: unicodeText(20).filter((n) => n !== "mcp" && n !== "manage-api-tokens"),
      },
      {
        path: ["claims", 0, "readonly"],
        types: ["boolean"],
        required: false,
        refused: fc.constantFrom(0, 1, "true", "false"),
      },
    ],
  },
  {
    name: "sendInvitations",
    path: "/v1/accounts/invitations",
    credentials: [OWNER],
    valid: fc.record({
      emails: fc.array(
        label.map((local) => `${local}@example.com`),
        { minLength: 1, maxLength: 3 },
      ),
    }),
    fields: [
      {
        path: ["emails"],
        types: ["array"],
        required: true,
        refused: fc.oneof(
          fc.constant([]),
          fc.array(fc.constant("a@example.com"), { minLength: 51, maxLength: 60 }),
        ),
      },
      {
        path: ["emails", 0],
        types: ["string"],
        required: false,
        refused: unicodeText(30).filter((text) => !text.includes("@")),
      },
    ],
  },
  {
    name: "submitRebuild",
    path: REBUILDS,
    credentials: PARTNER_OK,
    valid: fc.record(
      { sourceUrl: label.map((host) => `https://${host}.example.com/`), prompt: unicodeText(30) },
      { requiredKeys: ["sourceUrl"] },
    ),
    fields: [
      {
        path: ["sourceUrl"],
        types: ["string"],
        required: true,
        refused: fc.oneof(
          notUrl,
          longText(2049).map((tail) => `https://www.example.com/${tail}`),
          fc.constantFrom(
            "http://localhost/",
            "http://127.0.0.1/",
            "http://2130706433/",
            "http://0x7f.1/",
            "http://[::1]/",
            "http://[::ffff:10.0.0.1]/",
            "https://user:pw@www.example.com/",
            "ftp://www.example.com/",
            "/relative/path",
          ),
        ),
      },
      { path: ["prompt"], types: ["string"], required: false, refused: longText(10_001) },
    ],
  },
];

/** `body` with the value at `path` replaced by `value` (or removed, for undefined); a deep copy. */
function setAt(body: Json, path: (string | number)[], value: unknown): Json {
  const copy = structuredClone(body);
  let node: unknown = copy;
  for (const key of path.slice(0, -1)) node = (node as Record<string | number, unknown>)[key];
  const last = path[path.length - 1] as string | number;
  if (value === undefined) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete (node as Record<string, unknown>)[String(last)];
  } else (node as Record<string | number, unknown>)[last] = value;
  return copy;
}

/** Whether every container above `path` exists in `body`. */
function hasPath(body: Json, path: (string | number)[]): boolean {
  let node: unknown = body;
  for (const key of path.slice(0, -1)) {
    node = (node as Record<string | number, unknown> | undefined)?.[key];
    if (typeof node !== "object" || node === null) return false;
  }
  return true;
}

const post = (
  op: BodyOperation,
  headers: Header[],
  body: Uint8Array | string,
  kind: string,
  expected?: number,
): HostileRequest => ({
  kind: `${op.name}: ${kind}`,
  method: "POST",
  path: op.path,
  headers,
  body: typeof body === "string" ? new TextEncoder().encode(body) : body,
  ...(expected === undefined ? {} : { expected }),
});

const DEEP = "\u0000deep\u0000";

/** Bodies broken in every way, with valid credentials: 400, or 413 / 415 where those come first. */
export function badBodies(): fc.Arbitrary<HostileRequest> {
  return fc.oneof(
    ...BODY_OPERATIONS.map((op) =>
      op.valid.chain((valid) => {
        const text = JSON.stringify(valid);
        const headers = [...op.credentials, JSON_TYPE];
        const send = (body: Uint8Array | string, kind: string, expected: number) =>
          post(op, headers, body, kind, expected);
        const replaced = (f: Field, value: unknown) => JSON.stringify(setAt(valid, f.path, value));
        const field = fc.constantFrom(...op.fields.filter((f) => hasPath(valid, f.path)));
        const often = (arbitrary: fc.Arbitrary<HostileRequest>) => ({ arbitrary, weight: 10 });
        const rarely = (arbitrary: fc.Arbitrary<HostileRequest>) => ({ arbitrary, weight: 1 });
        return fc.oneof(
          often(notJson(text).map((body) => send(body, "not JSON", 400))),
          often(wrongType("object").map((value) => send(JSON.stringify(value), "not an object", 400))),
          often(
            field.chain((f) =>
              wrongType(...f.types).map((v) =>
                send(replaced(f, v), `${f.path.join(".")} of the wrong type`, 400),
              ),
            ),
          ),
          often(
            fc
              .constantFrom(...op.fields.filter((f) => f.required && hasPath(valid, f.path)))
              .map((f) => send(replaced(f, undefined), `${f.path.join(".")} missing`, 400)),
          ),
          often(
            fc
              .tuple(
                fc.oneof(
                  unicodeText(12),
                  fc.constantFrom("__proto__", "constructor", "prototype", "toString"),
                ),
                fc.jsonValue({ maxDepth: 2 }),
              )
              .filter(([key]) => key !== "" && !Object.hasOwn(valid, key))
              .map(([key, value]) =>
                send(JSON.stringify({ ...valid, [key]: value }), `unknown field ${JSON.stringify(key)}`, 400),
              ),
          ),
          often(
            field.chain((f) =>
              f.refused.map((v) => send(replaced(f, v), `${f.path.join(".")} refused by the rules`, 400)),
            ),
          ),
          often(withInvalidUtf8(text).map((bytes) => send(bytes, "invalid UTF-8", 400))),
          often(fc.constant(send("", "empty body", 400))),
          often(
            notJsonMediaType.map((type) =>
              post(
                op,
                [...op.credentials, ["content-type", type]],
                text,
                `Content-Type ${JSON.stringify(type)}`,
                415,
              ),
            ),
          ),
          often(
            fc.constant(post(op, [...op.credentials, JSON_TYPE, JSON_TYPE], text, "Content-Type twice", 415)),
          ),
          often(fc.constant(post(op, op.credentials, text, "no Content-Type", 415))),
          // Large and slow to build: rarer than the rest.
          rarely(
            fc
              .tuple(field, deepNesting)
              .map(([f, deep]) =>
                send(
                  replaced(f, DEEP).replace(JSON.stringify(DEEP), deep),
                  `${f.path.join(".")} nested deep`,
                  400,
                ),
              ),
          ),
          rarely(deepNesting.map((deep) => send(deep, "nested deep at the root", 400))),
          rarely(fc.constant(null).map(() => send(oversized(text), "over 1 MiB", 413))),
        );
      }),
    ),
  );
}

type OperationName =
  | BodyOperation["name"]
  | "listServers"
  | "deleteServer"
  | "listApiTokens"
  | "getApiToken"
  | "deleteApiToken"
  | "getTeamGuid";

type ValidRequest = HostileRequest & { api: "dashboard" | "rebuild" };

/** Every public operation as a valid request of the seed's owner (or of partner 1001). */
function validRequests(): Record<OperationName, fc.Arbitrary<ValidRequest>> {
  const withBody = Object.fromEntries(
    BODY_OPERATIONS.map((op) => [
      op.name,
      op.valid.map(
        (valid): ValidRequest => ({
          ...post(op, [...op.credentials, JSON_TYPE], JSON.stringify(valid), "valid"),
          kind: op.name,
          api: op.path === REBUILDS ? "rebuild" : "dashboard",
        }),
      ),
    ]),
  );
  const bare = (method: string, path: string, kind: string) =>
    fc.constant<ValidRequest>({ kind, method, path, headers: [OWNER], body: null, api: "dashboard" });
  return {
    ...withBody,
    listServers: bare("GET", "/v1/si/servers?page=1&pageSize=5", "listServers"),
    deleteServer: bare("DELETE", `/v1/si/servers/${SERVER_1}`, "deleteServer"),
    listApiTokens: bare("GET", "/v1/dashboard/api-tokens?filter=mock", "listApiTokens"),
    getApiToken: bare("GET", "/v1/dashboard/api-tokens/3", "getApiToken"),
    deleteApiToken: bare("DELETE", "/v1/dashboard/api-tokens/3", "deleteApiToken"),
    getTeamGuid: bare("GET", "/v1/accounts/team-guid?email=owner%40example.com", "getTeamGuid"),
  } as Record<OperationName, fc.Arbitrary<ValidRequest>>;
}

const withoutCredentials = (headers: readonly Header[]) =>
  headers.filter(([name]) => !["authorization", "x-partner-id", "x-api-key"].includes(name));

/** Valid requests with credentials missing, garbled, repeated, unknown or expired: 401. */
export function badCredentials(): fc.Arbitrary<HostileRequest> {
  type Credentials = { why: string; headers: Header[] };
  const use = (why: string, ...headers: Header[]): Credentials => ({ why, headers });
  const dashboard = fc.oneof(
    fc.constant(use("no Authorization")),
    headerText().map((value) => use(`Authorization ${JSON.stringify(value)}`, ["authorization", value])),
    headerText().map((value) => use("an unknown bearer token", bearer(`mock-token-${value || "x"}-unknown`))),
    fc.constant(use("an expired token", bearer("mock-token-expired"))),
    fc.constant(use("the scheme Token", ["authorization", "Token mock-token-unrestricted"])),
    fc.constant(use("Authorization twice, both valid", OWNER, OWNER)),
    headerText().map((value) => use("Authorization twice", OWNER, ["authorization", value])),
  );
  const partnerIds = fc.oneof(
    fc.constantFrom(
      "",
      "0",
      "01001",
      "-1001",
      "+1001",
      "1001.0",
      "1e3",
      "abc",
      "99999999999999999999",
      "1001, 1001",
    ),
    headerText(12),
  );
  const rebuild = fc.oneof(
    fc.constant(use("no credentials")),
    fc.constant(use("no X-API-Key", ["x-partner-id", "1001"])),
    fc.constant(use("no X-Partner-Id", ["x-api-key", "mock-rebuild-key-1001"])),
    partnerIds
      .filter((id) => !KNOWN_PARTNERS.has(id))
      .map((id) =>
        use(
          `X-Partner-Id ${JSON.stringify(id)}`,
          ["x-partner-id", id],
          ["x-api-key", "mock-rebuild-key-1001"],
        ),
      ),
    fc
      .oneof(
        fc.constantFrom("mock-webhook-key-1001", "mock-rebuild-key-1002", "MOCK-REBUILD-KEY-1001", ""),
        headerText(),
      )
      .filter((key) => key !== "mock-rebuild-key-1001")
      .map((key) => use(`X-API-Key ${JSON.stringify(key)}`, ["x-partner-id", "1001"], ["x-api-key", key])),
    fc.constant(use("X-API-Key twice", ...PARTNER_OK, ["x-api-key", "mock-rebuild-key-1001"])),
    fc.constant(use("X-Partner-Id twice", ...PARTNER_OK, ["x-partner-id", "1001"])),
  );
  return fc.oneof(...Object.values(validRequests())).chain((request) =>
    (request.api === "rebuild" ? rebuild : dashboard).map(
      ({ why, headers }): HostileRequest => ({
        kind: `${request.kind}: ${why}`,
        method: request.method,
        path: request.path,
        headers: [...headers, ...withoutCredentials(request.headers)],
        body: request.body,
        expected: 401,
      }),
    ),
  );
}

/** Valid requests by callers that may not make them: 403. */
export function forbidden(): fc.Arbitrary<HostileRequest> {
  const valid = validRequests();
  const as = (token: string, why: string, ...names: OperationName[]) =>
    names.map((name) =>
      valid[name].map(
        (request): HostileRequest => ({
          ...request,
          kind: `${request.kind} ${why}`,
          headers: [bearer(token), ...withoutCredentials(request.headers)],
          expected: 403,
        }),
      ),
    );
  const noClaimsNeeded = [
    "connectServers",
    "deleteServer",
    "listServers",
    "sendInvitations",
    "getTeamGuid",
  ] as const;
  return fc.oneof(
    ...as("mock-token-manage", "with a token that has claims", ...noClaimsNeeded),
    ...as("mock-token-mcp", "with an mcp token", ...noClaimsNeeded, "listApiTokens", "getApiToken"),
    ...as(
      "mock-token-manage-readonly",
      "with read-only manage-api-tokens",
      "createApiToken",
      "deleteApiToken",
    ),
    ...as("mock-token-manage-mcp-readonly", "by a caller with a read-only mcp claim", "createApiToken"),
    fc.constant<HostileRequest>({
      kind: "an unrestricted token requested by a caller with claims",
      method: "POST",
      path: "/v1/dashboard/api-tokens",
      headers: [bearer("mock-token-manage"), JSON_TYPE],
      body: new TextEncoder().encode('{"name":"wide","claims":[]}'),
      expected: 403,
    }),
    valid.submitRebuild.map(
      (request): HostileRequest => ({
        ...request,
        kind: `${request.kind} for a partner without the feature`,
        headers: [["x-partner-id", "1002"], ["x-api-key", "mock-rebuild-key-1002"], JSON_TYPE],
        expected: 403,
      }),
    ),
  );
}

const badPageValues = fc.oneof(
  fc.constantFrom(
    "",
    "0",
    "-1",
    "+1",
    "1.0",
    "1e2",
    "0x10",
    " 1",
    "1 ",
    "١",
    "2147483648",
    "99999999999999999999",
    "abc",
    "1,2",
  ),
  unicodeText(8).filter((text) => !/^\d+$/.test(text)),
);

/** Known query parameters empty, repeated, out of range or not numbers (unknown ones mixed in): 400. */
export function badQueries(): fc.Arbitrary<HostileRequest> {
  const noise = fc
    .array(fc.tuple(label, unicodeText(10)), { maxLength: 2 })
    .map((pairs) => pairs.map(([k, v]) => `&zz${k}=${q(v)}`).join(""));
  const list = fc.tuple(
    fc.constantFrom(
      ["/v1/si/servers", OWNER] as const,
      ["/v1/dashboard/api-tokens", bearer("mock-token-manage")] as const,
    ),
    fc.oneof(
      badPageValues.map((v) => [`page=${q(v)}`, "page"]),
      fc.oneof(badPageValues, fc.constantFrom("101", "1000")).map((v) => [`pageSize=${q(v)}`, "pageSize"]),
      fc.constantFrom(
        ["page=1&page=1", "page twice"],
        ["pageSize=10&pageSize=20", "pageSize twice"],
        ["page", "page without a value"],
      ),
    ),
    noise,
  );
  const tokensFilter = fc.constantFrom(["filter=", "empty filter"], ["filter=a&filter=b", "filter twice"]);
  const teamGuid = fc.oneof(
    fc.constantFrom(
      ["", "no email"],
      ["email=", "empty email"],
      ["email=owner%40example.com&email=owner%40example.com", "email twice"],
    ),
    unicodeText(30)
      .filter((text) => !text.includes("@"))
      .map((text) => [`email=${q(text)}`, "an email without @"]),
  );
  return fc.oneof(
    list.map(([[path, credential], [query, why], extra]) => ({
      kind: `GET ${path}: ${why}`,
      method: "GET",
      path: `${path}?${query}${extra}`,
      headers: [credential],
      body: null,
      expected: 400,
    })),
    tokensFilter.map(([query, why]) => ({
      kind: `list tokens: ${why}`,
      method: "GET",
      path: `/v1/dashboard/api-tokens?${query}`,
      headers: [bearer("mock-token-manage")],
      body: null,
      expected: 400,
    })),
    teamGuid.map(([query, why]) => ({
      kind: `team-guid: ${why}`,
      method: "GET",
      path: `/v1/accounts/team-guid?${query}`,
      headers: [OWNER],
      body: null,
      expected: 400,
    })),
  );
}

/** Path ids that do not exist or cannot: 404 (an odd id is treated like an unknown one). */
export function oddIds(): fc.Arbitrary<HostileRequest> {
  const tokenIds = fc.oneof(
    fc.constantFrom(
      "0",
      "00",
      "01",
      "-1",
      "+1",
      "1.0",
      "1e0",
      "%201",
      "abc",
      "%00",
      "%2F",
      "%2e%2e%2F1",
      "9".repeat(30),
      "0x1",
      "1%20",
    ),
    fc.integer({ min: 1_000_000, max: Number.MAX_SAFE_INTEGER }).map(String),
    unicodeText(12)
      .filter((text) => text !== "" && !/^\d+$/.test(text))
      .map(q),
  );
  const guids = fc.oneof(
    fc.uuid().filter((guid) => !guid.startsWith("5b1c3f0e-")),
    fc.constantFrom(
      `{${SERVER_1}}`,
      SERVER_1.replaceAll("-", ""),
      `${SERVER_1}0`,
      SERVER_1.slice(1),
      "not-a-guid",
      "%00",
    ),
    unicodeText(20)
      .filter((text) => text !== "")
      .map(q),
  );
  return fc
    .oneof(
      fc.tuple(fc.constantFrom("GET", "DELETE"), tokenIds).map(([method, id]) => ({
        kind: `${method} token id ${id}`,
        method,
        path: `/v1/dashboard/api-tokens/${id}`,
        headers: [bearer("mock-token-manage")],
        body: null,
      })),
      guids.map((guid) => ({
        kind: `DELETE server ${guid}`,
        method: "DELETE",
        path: `/v1/si/servers/${guid}`,
        headers: [OWNER],
        body: null,
      })),
    )
    .map((request) => ({
      ...request,
      // A `..` segment resolves to another path, which may exist with other methods: 404 or 405.
      ...(request.path.includes("%2e%2e") ? {} : { expected: 404 }),
    }));
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "PROPFIND"];
const ROUTES: [string, string[]][] = [
  ["/v1/si/servers", ["GET", "POST"]],
  [`/v1/si/servers/${SERVER_1}`, ["DELETE"]],
  ["/v1/dashboard/api-tokens", ["GET", "POST"]],
  ["/v1/dashboard/api-tokens/3", ["GET", "DELETE"]],
  ["/v1/accounts/invitations", ["POST"]],
  ["/v1/accounts/team-guid", ["GET"]],
  [REBUILDS, ["POST"]],
  ["/__mock/reset", ["POST"]],
  ["/__mock/state", ["GET"]],
  ["/__mock/faults", ["GET", "PUT"]],
  ["/__mock/clock/advance", ["POST"]],
  ["/__mock/deliveries", ["GET"]],
  ["/__mock/requests", ["GET"]],
];

/** Unknown paths (404) and known paths with a method they lack (405, with an Allow header). */
export function badPathsAndMethods(): fc.Arbitrary<HostileRequest> {
  const segment = fc.oneof(
    label,
    unicodeText(10)
      .filter((text) => text !== "")
      .map(q),
  );
  const unknown = fc
    .tuple(
      fc.constantFrom(
        "/v1",
        "/v1/si",
        "/v1/dashboard",
        REBUILDS,
        "/api/integration/partners/hostpanel",
        "/__mock",
      ),
      fc.array(segment, { minLength: 1, maxLength: 3 }),
      fc.constantFrom(...METHODS),
    )
    .map(([base, segments, method]) => ({
      kind: `${method} unknown path below ${base}`,
      method,
      path: `${base}/zz-${segments.join("/")}`,
      headers: [OWNER, ...PARTNER_OK],
      body: null,
      expected: 404,
    }));
  const wrongMethod = fc
    .constantFrom(...ROUTES)
    .chain(([path, allowed]) =>
      fc
        .constantFrom(...METHODS.filter((method) => !allowed.includes(method)))
        .map((method) => ({ path, method })),
    )
    .map(({ path, method }) => ({
      kind: `${method} ${path}`,
      method,
      path,
      headers: [OWNER, ...PARTNER_OK],
      body: null,
      expected: 405,
    }));
  return fc.oneof(unknown, wrongMethod);
}

const control = (
  method: string,
  path: string,
  body: unknown,
  kind: string,
  expected?: number,
): HostileRequest => ({
  kind: `control ${method} ${path}: ${kind}`,
  method,
  path: `/__mock${path}`,
  headers: [JSON_TYPE],
  body:
    body === undefined
      ? null
      : new TextEncoder().encode(typeof body === "string" ? body : JSON.stringify(body)),
  ...(expected === undefined ? {} : { expected }),
});

/** The control API's requests with bodies, ids and fields it refuses: 4xx, state untouched. */
export function badControlRequests(): fc.Arbitrary<HostileRequest> {
  const rate = fc.oneof(
    fc.double({ min: 1.000001, max: 1e9, noNaN: true }),
    fc.double({ max: -0.000001, noNaN: true, noDefaultInfinity: true }),
    wrongType("number"),
  );
  const latency = fc.oneof(
    fc.integer({ min: 60_001 }),
    fc.integer({ max: -1 }),
    fc.double({ min: 0.1, max: 100, noNaN: true }).filter((n) => !Number.isInteger(n)),
    wrongType("number"),
  );
  const faults = fc.oneof(
    rate.map((value) => ({ errorRate: value })),
    rate.map((value) => ({ resetRate: value })),
    latency.map((value) => ({ latencyMs: value })),
    fc.constant({ errorRate: 0.6, resetRate: 0.6 }),
    fc.tuple(label, fc.jsonValue({ maxDepth: 1 })).map(([key, value]) => ({ [`zz${key}`]: value })),
    wrongType("object"),
  );
  const seconds = fc.oneof(fc.integer({ max: -1 }), fc.constant(1e12), wrongType("number"));
  const partnerPatch = fc.oneof(
    fc.constantFrom(
      { rateLimitPerHour: 0 },
      { rateLimitPerHour: 1.5 },
      { rateLimitPerHour: -3 },
      { apiKey: "" },
      { apiKey: "mock-webhook-key-1001" },
      { apiKey: "has space" },
      { region: "EU!" },
      { featureEnabled: "yes" },
      { webhookUrl: "ftp://example.com/hook" },
      { brands: "x" },
    ),
    fc.tuple(label, fc.jsonValue({ maxDepth: 1 })).map(([key, value]) => ({ [`zz${key}`]: value })),
  );
  const magicLink = fc.oneof(
    fc.constantFrom(
      {},
      { partnerId: "x", promptToken: "t", customerId: "c" },
      { partnerId: 1001, promptToken: 5, customerId: "c" },
      { partnerId: 1001, promptToken: "t", customerId: "" },
    ),
    fc
      .tuple(label, fc.jsonValue({ maxDepth: 1 }))
      .map(([key, value]) => ({ partnerId: 1001, promptToken: "t", customerId: "c", [`zz${key}`]: value })),
    wrongType("object"),
  );
  const unknownId = fc.oneof(fc.uuid(), label);
  return fc.oneof(
    faults.map((body) => control("PUT", "/faults", body, "bad settings", 400)),
    notJson('{"errorRate":0.5}').map((text) => control("PUT", "/faults", text, "not JSON", 400)),
    fc.constant(control("PUT", "/faults", undefined, "no body", 400)),
    seconds.map((value) => control("POST", "/clock/advance", { seconds: value }, "bad seconds", 400)),
    fc
      .constantFrom({}, { seconds: 5, zz: 1 }, [5])
      .map((body) => control("POST", "/clock/advance", body, "bad body", 400)),
    partnerPatch.map((patch) => control("PUT", "/partners/1001", patch, "bad settings", 400)),
    fc
      .constantFrom("0", "abc", "-5", "01001", "1.5")
      .map((id) => control("PUT", `/partners/${id}`, { rateLimitPerHour: 5 }, "bad partner id")),
    fc
      .constantFrom("99999", "abc", "0")
      .map((id) => control("POST", `/partners/${id}/rotate-key`, undefined, "unknown partner")),
    fc
      .tuple(unknownId, fc.constantFrom("complete", "clone"))
      .map(([id, action]) => control("POST", `/rebuilds/${id}/${action}`, {}, "unknown rebuild")),
    fc
      .tuple(unknownId, wrongType("object"))
      .map(([id, body]) => control("POST", `/rebuilds/${id}/complete`, body, "unknown rebuild, bad body")),
    magicLink.map((body) => control("POST", "/magic-links/open", body, "bad body", 400)),
    fc
      .oneof(
        label.map((name) => `operation=zz${name}`),
        unicodeText(10)
          .filter((text) => text !== "")
          .map((text) => `operation=${q(text)}`),
        fc.constantFrom(
          "operation=",
          "operation=resetMock",
          "operation=listServers&operation=listServers",
          "status=",
          "status=ok",
          "status=99",
          "status=600",
          "status=20.5",
          "status=-200",
          "status=200&status=200",
          `status=${"9".repeat(400)}`,
        ),
      )
      .map((query) => control("GET", `/requests?${query}`, undefined, "bad journal filter", 400)),
    notJsonMediaType.map((type) => ({
      ...control("PUT", "/faults", { errorRate: 0.5 }, `Content-Type ${JSON.stringify(type)}`, 415),
      headers: [["content-type", type] as const],
    })),
    fc.constant(null).map(() => ({
      ...control("PUT", "/faults", undefined, "over 1 MiB", 413),
      body: oversized('{"errorRate":0.5}'),
    })),
  );
}

/** Paths of both APIs and the control API, to aim edge requests at. */
const EDGE_PATHS = [
  "/v1/si/servers",
  "/v1/dashboard/api-tokens",
  "/v1/dashboard/api-tokens/3",
  "/v1/accounts/invitations",
  REBUILDS,
  "/__mock/state",
  "/__mock/reset",
  "/__mock/snapshot",
  "/__mock/partners/1001/rotate-key",
  "/__mock/clock/advance",
] as const;

const notLoopbackHost = fc.oneof(
  label.map((name) => `${name}.example`),
  fc.tuple(label, fc.integer({ min: 1, max: 65535 })).map(([name, port]) => `${name}.test:${port}`),
  fc.ipV4().filter((ip) => !ip.startsWith("127.")),
  fc.constantFrom(
    "localhost.evil.example",
    "127.0.0.1.evil.example",
    "0.0.0.0",
    "[::2]",
    "evil.example@127.0.0.1",
  ),
);
const crossSiteOrigin = fc.oneof(
  label.map((name) => `https://${name}.example`),
  fc.tuple(label, fc.integer({ min: 1, max: 65535 })).map(([name, port]) => `http://${name}.test:${port}`),
  fc.constantFrom("null", "http://localhost.evil.example", "file://"),
);
const anyMethod = fc.constantFrom("GET", "POST", "PUT", "DELETE", "HEAD", "PATCH", "OPTIONS");

/**
 * What the standalone server's edge refuses before any API sees it: a Host that is not allowed
 * (403), a request to the control API from a cross-site origin (403, whatever it asks for), and a
 * request-target that is not a URL (400).
 */
export function badEdgeRequests(): fc.Arbitrary<HostileRequest> {
  const badHost = fc.tuple(anyMethod, fc.constantFrom(...EDGE_PATHS), notLoopbackHost).map(
    ([method, path, host]): HostileRequest => ({
      kind: `Host ${host}`,
      method,
      path,
      headers: [["host", host], OWNER, ...PARTNER_OK, JSON_TYPE],
      body: method === "POST" || method === "PUT" ? new TextEncoder().encode("{}") : null,
      expected: 403,
    }),
  );
  const crossSite = fc
    .tuple(
      anyMethod,
      fc.constantFrom(...EDGE_PATHS.filter((path) => path.startsWith("/__mock"))),
      crossSiteOrigin,
    )
    .map(
      ([method, path, origin]): HostileRequest => ({
        kind: `Origin ${origin} on the control API`,
        method,
        path,
        headers: [
          ["origin", origin],
          ["content-type", "text/plain"],
          ["access-control-request-method", "POST"],
        ],
        body: method === "POST" || method === "PUT" ? new TextEncoder().encode('{"seconds":60}') : null,
        expected: 403,
      }),
    );
  const badTarget = fc
    .tuple(
      fc.constantFrom("GET", "POST", "HEAD"),
      fc.oneof(
        fc.constantFrom(
          "http://[",
          "http://[::1",
          "//[",
          "http://:0x/",
          "https://a%20b/",
          "ftp://x/y",
          "http://%zz/",
        ),
        label.map((name) => `http://[${name}]/__mock/state`),
        label.map((name) => `http://exa%${name}mple/v1/si/servers`),
      ),
    )
    .map(
      ([method, path]): HostileRequest => ({
        kind: `request-target ${path}`,
        method,
        path,
        headers: [OWNER],
        body: null,
        expected: 400,
      }),
    );
  return fc.oneof(badHost, crossSite, badTarget);
}

/** CORS preflights from allowed (loopback) origins, on paths of the mock (204) and beside them (404). */
export function preflights(): fc.Arbitrary<HostileRequest & { known: boolean }> {
  const origin = fc
    .tuple(
      fc.constantFrom("http", "https"),
      fc.constantFrom("localhost", "127.0.0.1", "[::1]", "app.localhost"),
      fc.integer({ min: 1, max: 65535 }),
    )
    .map(([scheme, host, port]) => `${scheme}://${host}:${port}`);
  const path = fc.oneof(
    fc.constantFrom(...EDGE_PATHS).map((p) => ({ path: p, known: true })),
    label.map((name) => ({ path: `/v1/${name}`, known: false })),
  );
  return fc
    .tuple(origin, path, anyMethod, fc.array(headerText(20), { maxLength: 3 }))
    .map(([from, { path: target, known }, method, extra]) => ({
      kind: `preflight from ${from} for ${method}`,
      method: "OPTIONS",
      path: target,
      headers: [
        ["origin", from],
        ["access-control-request-method", method],
        ["access-control-request-headers", ["authorization", "x-api-key", ...extra].join(", ")],
        OWNER,
        ...PARTNER_OK,
      ],
      body: null,
      known,
    }));
}
