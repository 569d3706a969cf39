// The recording proxy (`rebuild-dashboard-kit proxy`, decisions/039): serves both APIs where the
// standalone mock serves them, behind the mock's own edge (Host, Origin, CORS), and forwards each
// request to the real service. The answer goes back unchanged; on the way, both sides are checked
// against the contract (the assumption recorder, which runs the compiled request validators too)
// and the exchange is written to the HAR recording, secrets replaced.
import { renameSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_MAX_RESPONSE_BYTES } from "../../src/core/options.js";
import { type AssumptionReport, createAssumptionRecorder } from "../assumptions/recorder.js";
import type { ContractDocument } from "../assumptions/report.js";
import { DomainError } from "../domain/errors.js";
import { NO_FAULTS } from "../domain/faults.js";
import { cryptoRandom } from "../domain/random.js";
import { createDispatcher, type Dispatcher } from "../http/dispatch.js";
import { createEdge, type EdgeObservedRequest } from "../http/edge.js";

import { createEdgePolicy, type EdgeOptions } from "../http/edge-policy.js";
import { busyResponse, errorResponse } from "../http/error-response.js";
import { publicApis } from "../http/mock-dispatcher.js";
import type { HeaderReader, MockRequest, MockResponse } from "../routes/types.js";
import type { WorldCore } from "../world.js";
import { decodedBody, type HarExchange, type HarWriter, openHar, Secrets } from "./har.js";
import { forward, UpstreamFailure } from "./upstream.js";

export interface ProxyOptions extends EdgeOptions {
  host: string;
  port: number;
  /** The dashboard service's base URL (ending in `/v1`); without it, dashboard requests get 502. */
  dashboardUpstream?: string;
  /** The rebuild service's base URL; without it, rebuild requests get 502. */
  rebuildUpstream?: string;
  /** Where to record the HAR log. */
  record?: string;
  /** Where `GET /__proxy/report` and `close` write the assumption report. */
  report?: string;
  /** How long the service may take for a whole answer (default 30 s): then 504. */
  upstreamTimeoutMs?: number;
  /** The largest answer held (default the SDK's 4 MiB): past it, 502. */
  maxAnswerBytes?: number;
  /**
   * Exchanges forwarded at once (default 32): each holds a request body up to its route's limit and
   * an answer up to `maxAnswerBytes`, so this bounds what the proxy holds. One more is answered 503
   * with `Retry-After: 1`, unread and not forwarded.
   */
  maxExchanges?: number;
  /** One line per exchange and per failure. */
  log?: (line: string) => void;
  /** Writes the report file (tests replace it). */
  writeReport?: (file: string, report: AssumptionReport) => void;
}

export interface RunningProxy {
  readonly origin: string;
  /** The assumption report of the traffic so far (and the requests that broke the contract). */
  report(): AssumptionReport;
  /** Stops serving; writes the report file and closes the HAR log. */
  close(): Promise<void>;
}

const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_EXCHANGES = 32;
/** The proxy's own endpoint, beside the APIs. */
const REPORT_PATH = "/__proxy/report";

interface Api {
  document: ContractDocument;
  /** Where the API is below the proxy's origin (`/v1`, ``), and where its service is. */
  prefix: string;
  upstream: string | undefined;
  /** Routes only: asked where operations are and how large a body they take, never run. */
  routes: Dispatcher;
}

/** An error answer in the APIs' envelope, with the proxy's own status. */
function proxyError(status: number, message: string): MockResponse {
  return { ...errorResponse(new DomainError("INTERNAL", message)), status };
}

function headerReader(pairs: readonly (readonly [string, string])[]): HeaderReader {
  return {
    get(name) {
      const wanted = name.toLowerCase();
      const values = pairs.filter(([key]) => key.toLowerCase() === wanted).map(([, value]) => value);
      return values.length ? values.join(", ") : null;
    },
    entries: () => new Map(pairs.map(([key, value]) => [key.toLowerCase(), value])).entries(),
  };
}

function pairsOf(raw: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i] as string, raw[i + 1] as string]);
  return out;
}

function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Reads the request body while it stays within `limit` bytes (`complete`); a larger one is left
 * paused after the first chunks, for `forward` to send on as it arrives.
 */
function readBody(req: IncomingMessage, limit: number): Promise<{ head: Buffer | null; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        req.pause();
        req.off("data", onData);
        resolve({ head: Buffer.concat(chunks, size), complete: false });
      }
    };
    req.on("data", onData);
    req.on("end", () => resolve({ head: size === 0 ? null : Buffer.concat(chunks, size), complete: true }));
    req.on("error", reject);
  });
}

function writeMock(
  res: ServerResponse,
  response: MockResponse,
  extra?: Readonly<Record<string, string>>,
): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string | number> = { ...response.headers, ...extra };
  if (response.body === undefined) {
    res.writeHead(response.status, headers).end();
    return;
  }
  const text = JSON.stringify(response.body);
  headers["content-type"] = "application/json";
  headers["content-length"] = Buffer.byteLength(text);
  res.writeHead(response.status, headers).end(text);
}

export async function startProxyServer(options: ProxyOptions): Promise<RunningProxy> {
  const log = options.log ?? (() => {});
  const timeoutMs = options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const maxBytes = options.maxAnswerBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const maxExchanges = options.maxExchanges ?? DEFAULT_MAX_EXCHANGES;
  if (!(Number.isSafeInteger(maxExchanges) && maxExchanges > 0)) {
    throw new RangeError(`proxy: maxExchanges must be a positive whole number, got ${maxExchanges}`);
  }
  // Exchanges being forwarded now (their body read, sent on, their answer read), against maxExchanges.
  let inFlight = 0;
  const recorder = createAssumptionRecorder();
  const secrets = new Secrets();
  const har: HarWriter | undefined = options.record ? openHar(options.record) : undefined;
  const policy = createEdgePolicy(options.host, options);

  const server = createServer();
  // A client sending its request slowly holds one of maxExchanges: not longer than the service may
  // take to answer (node's own default is 300 s).
  server.requestTimeout = timeoutMs;
  server.headersTimeout = Math.min(server.headersTimeout, timeoutMs);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}`;

  const observe = (exchange: EdgeObservedRequest) => {
    if (exchange.edge)
      log(
        `${exchange.request.method} ${exchange.request.url.pathname} ${exchange.response.status} (refused: ${exchange.edge})`,
      );
  };
  // The proxy never runs a route (there is no world behind it): the dispatchers only say where
  // the mock's routes are, so the proxy serves exactly the same paths.
  const routesOf = (mounted: ReturnType<typeof publicApis>[number][]) =>
    createDispatcher<WorldCore>({
      world: undefined as unknown as WorldCore,
      apis: mounted,
      faults: () => NO_FAULTS,
      random: cryptoRandom,
      observe,
    });
  const [dashboardApi, rebuildApi] = publicApis(origin);
  const apis: Api[] = [
    { document: "dashboard", mount: dashboardApi, upstream: options.dashboardUpstream },
    { document: "rebuild", mount: rebuildApi, upstream: options.rebuildUpstream },
  ].map(({ document, mount, upstream }) => ({
    document: document as ContractDocument,
    prefix: new URL(mount.baseUrl).pathname.replace(/\/+$/, ""),
    upstream: upstream?.replace(/\/+$/, ""),
    routes: routesOf([mount]),
  }));
  const edge = createEdge(routesOf([dashboardApi, rebuildApi]), policy);

  const report = (): AssumptionReport => recorder.report();
  const writeReport = (): void => {
    if (!options.report) return;
    try {
      (options.writeReport ?? defaultWriteReport)(options.report, report());
    } catch (error) {
      log(`proxy: cannot write the report to ${options.report}: ${(error as Error).message}`);
    }
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const startedAt = new Date();
    const method = req.method ?? "GET";
    const rawHeaders = pairsOf(req.rawHeaders);
    const headers = headerReader(rawHeaders);
    const target = req.url ?? "";
    let url: URL;
    try {
      if (!target.startsWith("/") || target.startsWith("//")) throw new TypeError("not origin-form");
      url = new URL(origin + target);
    } catch {
      writeMock(res, edge.badTarget({ method, headers, body: null }, new URL("/", origin)).response);
      return;
    }
    const request: MockRequest = { method, url, headers, body: null };
    const screened = edge.screen(request);
    if (screened) {
      writeMock(res, screened.response);
      return;
    }
    const cors = edge.corsHeaders(request);
    if (url.pathname === REPORT_PATH) {
      if (method !== "GET" && method !== "HEAD") {
        writeMock(
          res,
          errorResponse(
            new DomainError("METHOD_NOT_ALLOWED", `${method} is not allowed on ${REPORT_PATH}`, {
              allow: ["GET", "HEAD"],
            }),
          ),
          cors,
        );
        return;
      }
      writeReport();
      writeMock(res, { status: 200, body: report() }, cors);
      return;
    }
    const api = apis.find((candidate) => candidate.routes.apiAt(url));
    if (!api) {
      writeMock(
        res,
        errorResponse(
          new DomainError(
            "NOT_FOUND",
            `No resource at ${url.pathname}: the proxy serves the APIs where the mock does`,
          ),
        ),
        cors,
      );
      return;
    }
    const label = `${method} ${url.pathname}`;
    if (!api.upstream) {
      log(`proxy: ${label}: no --${api.document}-upstream was given; answered 502`);
      writeMock(
        res,
        proxyError(
          502,
          `The proxy has no ${api.document} service to forward to: start it with --${api.document}-upstream URL`,
        ),
        cors,
      );
      return;
    }
    if (inFlight >= maxExchanges) {
      log(`proxy: ${label}: ${maxExchanges} exchanges are already being forwarded; answered 503`);
      // Its body is left unread: the connection ends with the answer.
      writeMock(res, busyResponse(`The proxy is already forwarding ${maxExchanges} exchanges`), {
        ...cors,
        connection: "close",
      });
      return;
    }
    inFlight++;
    try {
      // A body over the operation's limit is the service's to refuse: it is sent on, not held.
      let read: Awaited<ReturnType<typeof readBody>>;
      try {
        read = await readBody(req, api.routes.match(method, url).bodyLimit);
      } catch {
        // The client went away mid-body (or sent it too slowly: requestTimeout): nothing to forward.
        log(`proxy: ${label}: the client went away before its body ended; nothing forwarded`);
        return;
      }
      const { head: body, complete } = read;
      const path = url.pathname.slice(api.prefix.length) || "/";
      const upstreamUrl = new URL(api.upstream + path + url.search);
      let answer: Awaited<ReturnType<typeof forward>>;
      try {
        answer = await forward({
          method,
          url: upstreamUrl,
          headers: rawHeaders,
          body,
          ...(complete ? {} : { rest: req }),
          timeoutMs,
          maxBytes,
        });
      } catch (error) {
        if (!(error instanceof UpstreamFailure)) throw error;
        const status = error.kind === "timeout" ? 504 : 502;
        log(
          `proxy: ${label}: the ${api.document} service at ${upstreamUrl.origin} ${error.message}; answered ${status}`,
        );
        writeMock(res, proxyError(status, `The ${api.document} service ${error.message}`), cors);
        return;
      }
      // The answer as the service gave it; the edge's CORS headers in place of any of its own.
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of answer.headers) {
        const key = name.toLowerCase();
        if (cors && (key.startsWith("access-control-") || key === "vary") && key in cors) continue;
        const before = out[key];
        out[key] = before === undefined ? value : [before, value].flat();
      }
      if (!res.destroyed) {
        res.writeHead(answer.status, answer.statusText, { ...out, ...cors });
        res.end(method === "HEAD" ? undefined : answer.body);
      }
      const ms = Math.round(performance.now() - started);
      log(`${label} ${answer.status} ${ms}ms`);
      // A body over the limit is recorded by its first bytes only, and judged as no JSON.
      const requestText = complete ? body?.toString("utf8") : undefined;
      const responseText = decodedBody(answer.body, answer.headers, maxBytes);
      const requestJson = parseJson(requestText);
      const responseJson = parseJson(responseText);
      const exchange: HarExchange = {
        startedAt,
        method,
        url: upstreamUrl,
        requestHeaders: rawHeaders,
        requestBody: body,
        status: answer.status,
        statusText: answer.statusText,
        responseHeaders: answer.headers,
        responseBody: answer.body,
        ms,
      };
      secrets.learn(exchange, requestJson, responseJson);
      har?.add(exchange, secrets, requestText, responseText);
      const lower = (pairs: readonly (readonly [string, string])[]) =>
        Object.fromEntries(pairs.map(([name, value]) => [name.toLowerCase(), value]));
      recorder.record({
        document: api.document,
        method,
        path,
        query: url.search.slice(1),
        requestHeaders: lower(rawHeaders),
        requestBody: requestJson,
        status: answer.status,
        responseHeaders: lower(answer.headers),
        responseBody: responseJson,
      });
    } finally {
      inFlight--;
    }
  }

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((error: unknown) => {
      log(
        `proxy: internal error on ${req.method} ${req.url?.split("?")[0]}: ${(error as Error)?.stack ?? String(error)}`,
      );
      if (!res.headersSent) writeMock(res, proxyError(500, "The proxy hit an internal error"));
      else res.destroy();
    });
  });
  server.on("clientError", (_error, socket) => {
    if (socket.writable)
      socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
    else socket.destroy();
  });

  let closing: Promise<void> | undefined;
  return {
    origin,
    report,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => {
        writeReport();
        har?.close();
      });
      return closing;
    },
  };
}

function defaultWriteReport(file: string, report: AssumptionReport): void {
  // Written whole, then renamed over the file: a reader never sees half a report.
  writeFileSync(`${file}.tmp`, `${JSON.stringify(report, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}
