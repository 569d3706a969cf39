// The probes `verify` sends, as data: --help lists them from here, the runner (verify.ts) sends
// them. Each expects the status the contract documents for such a request; the recorder
// (mocks/assumptions/) turns the answers into confirmed or contradicted elements. Values the contract
// states (the largest page, a product) are read from it.
import { contractDocuments } from "../../src/generated/assumptions.js";
import type { ContractDocument } from "../assumptions/report.js";
import { followRefs, isNode, resolve } from "../assumptions/schema-walk.js";

/** Which credential a probe sends: the given one, none, or one the service cannot know. */
type Auth = "valid" | "none" | "wrong";

/** A request body: JSON, a text/plain body, or a JSON body one byte over the size the contract allows. */
type Payload = { kind: "json"; value: unknown } | { kind: "text" } | { kind: "oversized" };

/**
 * The placeholders a probe's path, query or body may hold, filled in at run time: a GUID no server
 * has, a token id from the list, an id above any the list shows, an address nobody has, the
 * --invite-email and --source-url values, and what an earlier probe of the group created.
 */
export type Placeholder =
  | "{new guid}"
  | "{listed id}"
  | "{unknown id}"
  | "{unknown email}"
  | "{invite email}"
  | "{source url}"
  | "{created id}"
  | "{created guid}";

export interface Probe {
  readonly document: ContractDocument;
  readonly method: string;
  /** The path as the document defines it, placeholders filled in when sent. */
  readonly path: string;
  readonly query?: string;
  readonly auth: Auth;
  readonly body?: Payload;
  /** The status the contract documents for this request; none where two are right (200 or 202). */
  readonly expected?: number;
  /** What the probe does, for --help and the progress lines. */
  readonly what: string;
  /** Something the answer holds that later probes of its group use, and must be removed again. */
  readonly creates?: { readonly placeholder: "{created id}" | "{created guid}"; readonly cleanup: Probe };
  /** A success answer to this probe removed what the group created. */
  readonly removes?: boolean;
}

/** A sequence of probes that create, use and remove one thing; skipped from the first that fails to create. */
export interface WriteGroup {
  /** The option the group needs besides --allow-writes. */
  readonly needs?: "inviteEmail" | "sourceUrl";
  readonly document: ContractDocument;
  readonly probes: readonly Probe[];
}

const dashboard = (probe: Omit<Probe, "document">): Probe => ({ document: "dashboard", ...probe });
const rebuild = (probe: Omit<Probe, "document">): Probe => ({ document: "rebuild", ...probe });
const REBUILDS = "/api/integration/partners/hostpanel/rebuilds";

/** The value at a pointer of a service contract (through `$ref`s): how the probes read a limit. */
function stated(document: ContractDocument, pointer: string): unknown {
  const root = contractDocuments[document];
  return followRefs(root, resolve(root, pointer), pointer).node;
}

const pageSchema = stated("dashboard", "/components/parameters/Page/schema");
/** The largest page the contract allows: a page no account fills. */
const LAST_PAGE = isNode(pageSchema) && typeof pageSchema.maximum === "number" ? pageSchema.maximum : 1;

/**
 * Bodies the contract refuses and a wrong method, for each operation that takes a body. A wrong
 * method is GET where the path has none, else PUT without a body: nothing a service could act on.
 */
function refusedBodies(document: ContractDocument, path: string, wrongMethod: string): Probe[] {
  const make = document === "dashboard" ? dashboard : rebuild;
  return [
    make({
      method: "POST",
      path,
      auth: "valid",
      body: { kind: "text" },
      expected: 415,
      what: "a text/plain body",
    }),
    make({
      method: "POST",
      path,
      auth: "valid",
      body: { kind: "oversized" },
      expected: 413,
      what: "a body over 1 MiB",
    }),
    make({
      method: "POST",
      path,
      auth: "valid",
      body: { kind: "json", value: {} },
      expected: 400,
      what: "an empty JSON object",
    }),
    make({
      method: wrongMethod,
      path,
      auth: "valid",
      expected: 405,
      what: "a method the path does not have",
    }),
  ];
}

/** The token list: its answer gives the ids later probes read (`{listed id}`, `{unknown id}`). */
export const LIST_TOKENS = dashboard({
  method: "GET",
  path: "/dashboard/api-tokens",
  auth: "valid",
  expected: 200,
  what: "list tokens",
});

export const READ_PROBES: readonly Probe[] = [
  dashboard({ method: "GET", path: "/si/servers", auth: "valid", expected: 200, what: "list servers" }),
  dashboard({
    method: "GET",
    path: "/si/servers",
    auth: "none",
    expected: 401,
    what: "without a credential",
  }),
  dashboard({
    method: "GET",
    path: "/si/servers",
    auth: "wrong",
    expected: 401,
    what: "with an unknown token",
  }),
  dashboard({
    method: "GET",
    path: "/si/servers",
    query: `page=${LAST_PAGE}`,
    auth: "valid",
    expected: 200,
    what: "the last page the contract allows (empty)",
  }),
  dashboard({
    method: "GET",
    path: "/si/servers",
    query: "pageSize=0",
    auth: "valid",
    expected: 400,
    what: "pageSize 0",
  }),
  ...refusedBodies("dashboard", "/si/servers", "PUT"),
  dashboard({
    method: "DELETE",
    path: "/si/servers/{new guid}",
    auth: "valid",
    expected: 404,
    what: "a GUID no server has",
  }),
  dashboard({
    method: "GET",
    path: "/si/servers/{new guid}",
    auth: "valid",
    expected: 405,
    what: "a method the path does not have",
  }),
  LIST_TOKENS,
  ...refusedBodies("dashboard", "/dashboard/api-tokens", "PUT"),
  dashboard({
    method: "GET",
    path: "/dashboard/api-tokens/{listed id}",
    auth: "valid",
    expected: 200,
    what: "read the first listed token",
  }),
  dashboard({
    method: "GET",
    path: "/dashboard/api-tokens/{unknown id}",
    auth: "valid",
    expected: 404,
    what: "an id no token has",
  }),
  dashboard({
    method: "PUT",
    path: "/dashboard/api-tokens/{unknown id}",
    auth: "valid",
    expected: 405,
    what: "a method the path does not have",
  }),
  dashboard({
    method: "GET",
    path: "/accounts/team-guid",
    query: "email={unknown email}",
    auth: "valid",
    expected: 404,
    what: "an address nobody has",
  }),
  dashboard({
    method: "GET",
    path: "/accounts/team-guid",
    auth: "valid",
    expected: 400,
    what: "without the email parameter",
  }),
  dashboard({
    method: "PUT",
    path: "/accounts/team-guid",
    auth: "valid",
    expected: 405,
    what: "a method the path does not have",
  }),
  ...refusedBodies("dashboard", "/accounts/invitations", "GET"),
  rebuild({
    method: "POST",
    path: REBUILDS,
    auth: "none",
    body: { kind: "json", value: {} },
    expected: 401,
    what: "without credentials",
  }),
  rebuild({
    method: "POST",
    path: REBUILDS,
    auth: "wrong",
    body: { kind: "json", value: {} },
    expected: 401,
    what: "with an unknown API key",
  }),
  ...refusedBodies("rebuild", REBUILDS, "GET"),
];

const tokenCleanup = dashboard({
  method: "DELETE",
  path: "/dashboard/api-tokens/{created id}",
  auth: "valid",
  expected: 204,
  what: "remove the token created",
});
const serverCleanup = dashboard({
  method: "DELETE",
  path: "/si/servers/{created guid}",
  auth: "valid",
  expected: 204,
  what: "remove the server connected",
});

/** The server `verify` connects: an address under .invalid (RFC 6761), which no one can own. */
const VERIFY_SERVER = {
  address: "https://rebuild-dashboard-kit-verify.invalid:8443",
  product: "plesk",
};

export const WRITE_GROUPS: readonly WriteGroup[] = [
  {
    document: "dashboard",
    probes: [
      dashboard({
        method: "POST",
        path: "/dashboard/api-tokens",
        auth: "valid",
        body: {
          kind: "json",
          // The narrowest token there is, with the empty `attributes` the contract assumes it takes.
          value: {
            name: "rebuild-dashboard-kit verify",
            claims: [{ name: "manage-api-tokens", readonly: true, attributes: {} }],
          },
        },
        expected: 201,
        what: "create a read-only token manager token",
        creates: { placeholder: "{created id}", cleanup: tokenCleanup },
      }),
      dashboard({
        method: "GET",
        path: "/dashboard/api-tokens/{created id}",
        auth: "valid",
        expected: 200,
        what: "read it",
      }),
      { ...tokenCleanup, what: "delete it", removes: true },
      dashboard({
        method: "GET",
        path: "/dashboard/api-tokens/{created id}",
        auth: "valid",
        expected: 404,
        what: "read it again",
      }),
      dashboard({
        method: "DELETE",
        path: "/dashboard/api-tokens/{created id}",
        auth: "valid",
        expected: 404,
        what: "delete it again",
      }),
    ],
  },
  {
    document: "dashboard",
    probes: [
      dashboard({
        method: "POST",
        path: "/si/servers",
        auth: "valid",
        body: { kind: "json", value: { servers: [VERIFY_SERVER] } },
        expected: 201,
        what: `connect ${VERIFY_SERVER.address}`,
        creates: { placeholder: "{created guid}", cleanup: serverCleanup },
      }),
      { ...serverCleanup, what: "delete it", removes: true },
      dashboard({
        method: "DELETE",
        path: "/si/servers/{created guid}",
        auth: "valid",
        expected: 404,
        what: "delete it again",
      }),
    ],
  },
  {
    needs: "inviteEmail",
    document: "dashboard",
    probes: [
      dashboard({
        method: "POST",
        path: "/accounts/invitations",
        auth: "valid",
        body: { kind: "json", value: { emails: ["{invite email}"] } },
        expected: 202,
        what: "invite --invite-email",
      }),
      dashboard({
        method: "GET",
        path: "/accounts/team-guid",
        query: "email={invite email}",
        auth: "valid",
        expected: 200,
        what: "its team GUID",
      }),
    ],
  },
  {
    needs: "sourceUrl",
    document: "rebuild",
    probes: [
      rebuild({
        method: "POST",
        path: REBUILDS,
        auth: "valid",
        body: { kind: "json", value: { sourceUrl: "{source url}" } },
        what: "submit --source-url (202 new, or 200 if submitted before)",
      }),
      rebuild({
        method: "POST",
        path: REBUILDS,
        auth: "valid",
        body: { kind: "json", value: { sourceUrl: "{source url}" } },
        expected: 200,
        what: "submit it again: the existing request",
      }),
    ],
  },
];

/** One line per probe for --help: `GET /si/servers without a credential → 401`. */
export function probeList(which: "read" | "write"): string {
  const probes = which === "read" ? READ_PROBES : WRITE_GROUPS.flatMap((group) => group.probes);
  return probes
    .map((probe) => {
      const query = probe.query ? `?${probe.query}` : "";
      const status = probe.expected === undefined ? "" : ` → ${probe.expected}`;
      return `  ${probe.document} ${probe.method} ${probe.path}${query}: ${probe.what}${status}`;
    })
    .join("\n");
}
