/**
 * Which hosts may address the standalone server and which browser origins may call it, given its
 * options: pure, so the rules are tested apart from HTTP (decisions/017).
 *
 * - Host (against DNS rebinding, as Vite's `server.allowedHosts`): loopback names and addresses
 *   (`localhost`, `*.localhost`, `127.0.0.0/8`, `[::1]`), the address the server binds, and the
 *   `allowedHosts` entries. Ports are not compared.
 * - Origin (CORS): with CORS on, any `http`/`https` origin on a loopback host, plus `corsOrigins`
 *   (exact origins; `*` allows every origin). With CORS off, none.
 */

import { remembered } from "../domain/remembered.js";

export interface EdgeOptions {
  /** false turns CORS off (`--no-cors`): no origin is allowed, so no CORS headers are ever sent. Default true. */
  cors?: boolean;
  /** Origins allowed besides loopback ones (`--cors-origin`), such as `https://app.example.test:8443`; `*` allows all. */
  corsOrigins?: readonly string[];
  /** Host names or addresses besides loopback ones and the bound host (`--allowed-host`). */
  allowedHosts?: readonly string[];
}

export interface EdgePolicy {
  /** Whether CORS is on: then every answer varies by Origin. */
  readonly cors: boolean;
  /** Whether a request whose `Host` header is `host` (port included or not) may be answered. */
  hostAllowed(host: string): boolean;
  /** Whether a page on `origin` (an `Origin` header) may call the server across origins. */
  originAllowed(origin: string): boolean;
}

/** `host` as the URL parser writes it (lower case, IPv4 dotted, IPv6 bracketed and compressed), or undefined. */
export function canonicalHost(host: string): string | undefined {
  if (host === "" || /[\s/\\?#@]/.test(host)) return undefined;
  try {
    const url = new URL(`http://${host}/`);
    return url.hostname.replace(/\.$/, "");
  } catch {
    return undefined;
  }
}

/** localhost, *.localhost (RFC 6761: always loopback), 127.0.0.0/8 and ::1. */
export function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname) ||
    hostname === "[::1]"
  );
}

/**
 * The origin `value` names (`scheme://host[:port]`, a trailing slash allowed), normalised; `*` as
 * is. Throws a TypeError naming the value otherwise: what `--cors-origin` and `startMockServer` accept.
 */
export function normaliseCorsOrigin(value: string): string {
  if (value === "*") return value;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (
    !url ||
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    url.username !== "" ||
    url.password !== "" ||
    url.pathname !== "/" ||
    url.search !== "" ||
    url.hash !== "" ||
    /[?#]/.test(value)
  ) {
    throw new TypeError(`not an origin (http[s]://host[:port]): ${value}`);
  }
  return url.origin;
}

/** A host name or address (an IPv6 address with or without brackets), canonical; a TypeError naming the value otherwise. */
export function normaliseHost(value: string): string {
  const host = canonicalHost(bracketIpv6(value));
  if (host === undefined) throw new TypeError(`not a host name or address: ${value}`);
  return host;
}

function bracketIpv6(value: string): string {
  return value.indexOf(":") !== value.lastIndexOf(":") && !value.startsWith("[") ? `[${value}]` : value;
}

export function createEdgePolicy(boundHost: string, options: EdgeOptions = {}): EdgePolicy {
  const bound = canonicalHost(bracketIpv6(boundHost));
  const hosts = new Set((options.allowedHosts ?? []).map(normaliseHost));
  if (bound !== undefined) hosts.add(bound);
  const cors = options.cors !== false;
  const origins = new Set((options.corsOrigins ?? []).map(normaliseCorsOrigin));
  const anyOrigin = origins.has("*");

  return {
    cors,
    // Every request asks, nearly always with the same few values: parsing each once is enough.
    hostAllowed: remembered((header) => {
      const host = canonicalHost(header);
      return host !== undefined && (isLoopbackHost(host) || hosts.has(host));
    }, REMEMBERED),
    originAllowed: remembered((origin) => {
      if (!cors) return false;
      if (anyOrigin || origins.has(origin)) return true;
      let url: URL;
      try {
        url = new URL(origin);
      } catch {
        return false;
      }
      return (
        (url.protocol === "http:" || url.protocol === "https:") &&
        url.origin === origin &&
        isLoopbackHost(url.hostname)
      );
    }, REMEMBERED),
  };
}

// Enough for every name a developer's machine uses; a header value longer than a host name can be
// (253 characters, and a scheme and port) is answered each time rather than kept.
const REMEMBERED = { capacity: 256, longestKey: 300 };
