import { assertMatchesContract, type ContractApi } from "../../support/contract-validator.js";
import { PARTNER } from "../../support/default-seed.js";

/** One request, relative to the mock's origin. */
export interface Call {
  /** Default GET, or POST when a body is given. */
  method?: string;
  /** From the origin on, query included: `/v1/si/servers?page=2`. */
  path: string;
  headers?: HeadersInit;
  /** Sent as JSON with `Content-Type: application/json` unless `headers` sets another type. */
  json?: unknown;
  /** Sent as is. */
  body?: string | Uint8Array<ArrayBuffer>;
}

export interface Answer<Body = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON; undefined for an empty body. */
  body: Body;
}

/**
 * Sends a request and checks the answer against the contract before returning it. The body type is
 * the caller's claim about a response the contract check has just validated.
 */
export type Client = <Body = unknown>(call: Call) => Promise<Answer<Body>>;

const REBUILD_SCOPE = "/api/integration/partners/hostpanel";

/** Which contract a path falls under, and the path below that API's base URL. */
function contractOf(pathname: string): { api: ContractApi; path: string } | undefined {
  if (pathname === "/v1" || pathname.startsWith("/v1/")) return { api: "dashboard", path: pathname.slice(3) };
  if (pathname === REBUILD_SCOPE || pathname.startsWith(`${REBUILD_SCOPE}/`)) {
    return { api: "rebuild", path: pathname };
  }
  return undefined;
}

/** A client for the mock at `origin` (MSW's intercepted origin or a real server's). */
export function createClient(origin: string): Client {
  return async <Body>(call: Call): Promise<Answer<Body>> => {
    const headers = new Headers(call.headers);
    let body = call.body;
    if (call.json !== undefined) {
      body = JSON.stringify(call.json);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
    }
    const method = call.method ?? (body === undefined ? "GET" : "POST");
    const response = await fetch(`${origin}${call.path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.text();
    let parsed: unknown;
    if (text !== "") {
      const type = response.headers.get("content-type") ?? "";
      if (!type.startsWith("application/json")) {
        throw new Error(
          `${method} ${call.path} answered ${response.status} with a ${type || "untyped"} body`,
        );
      }
      parsed = JSON.parse(text);
    }
    const pathname = new URL(call.path, origin).pathname;
    const target = contractOf(pathname);
    if (target) {
      assertMatchesContract(target.api, {
        method,
        path: target.path,
        status: response.status,
        headers: response.headers,
        body: parsed,
      });
    }
    return { status: response.status, headers: response.headers, body: parsed as Body };
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Calls the dashboard API (paths below `/v1`) as the holder of `token`, with an optional JSON body. */
export function dashboardAs(client: Client, token: string) {
  return <Body = unknown>(method: string, path: string, json?: unknown) =>
    client<Body>({
      method,
      path: `/v1${path}`,
      headers: bearer(token),
      ...(json === undefined ? {} : { json }),
    });
}

export const REBUILDS_PATH = `${REBUILD_SCOPE}/rebuilds`;

export interface RebuildAuth {
  /** null leaves the header out. */
  partnerId?: string | null;
  apiKey?: string | null;
}

/** The credential headers of a rebuild request; partner 1001's unless told otherwise. */
export function rebuildHeaders(auth: RebuildAuth = {}): Record<string, string> {
  const partnerId = auth.partnerId === undefined ? PARTNER.ok.id : auth.partnerId;
  const apiKey = auth.apiKey === undefined ? PARTNER.ok.apiKey : auth.apiKey;
  return {
    ...(partnerId === null ? {} : { "x-partner-id": partnerId }),
    ...(apiKey === null ? {} : { "x-api-key": apiKey }),
  };
}

/** Submits a rebuild with a JSON body as partner 1001 (or as `auth` says). */
export function submitRebuild<Body = unknown>(client: Client, json: unknown, auth: RebuildAuth = {}) {
  return client<Body>({ method: "POST", path: REBUILDS_PATH, headers: rebuildHeaders(auth), json });
}
