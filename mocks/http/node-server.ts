import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { DomainError } from "../domain/errors.js";
import {
  coreOf,
  createMockWorld,
  type MockWorld,
  type MockWorldOptions,
  type MockWorldSnapshot,
} from "../world.js";
import { answerClientError } from "./client-error.js";
import { consoleRoutes } from "./console-endpoints.js";
import type { EdgeObservedRequest } from "./edge.js";
import { createEdge } from "./edge.js";
import { createEdgePolicy, type EdgeOptions, type EdgePolicy } from "./edge-policy.js";
import { createEventHub, type EventStreamOptions } from "./event-streams.js";
import { createMockDispatcher, type MockObservation } from "./mock-dispatcher.js";
import { createNodeListener, type RequestLogEntry } from "./node-listener.js";
import { nodeSha256Hex } from "./node-sha256.js";
import { createStateFileWriter, readStateFile } from "./state-file.js";
import { lockStateFile, type StateFileLock } from "./state-file-lock.js";
import { resolveStateFile } from "./state-file-path.js";
import { removeOrphans } from "./state-file-temp.js";

/**
 * What the standalone server's `observe` sees: a `MockObservation`, where a request its HTTP edge
 * answered before any API (a CORS preflight, a refused host or origin) also names the rule (`edge`).
 */
export type MockServerObservation =
  | Exclude<MockObservation, { kind: "request" }>
  | ({ kind: "request" } & EdgeObservedRequest);

/**
 * How `startMockServer` serves: where it listens, the world it serves (or the options of the one it
 * creates: every `MockWorldOptions` but `origin`, which is the server's), who may call the control
 * API (`EdgeOptions`), what it reports, and the state file.
 */
export interface MockServerOptions extends Omit<MockWorldOptions, "origin">, EdgeOptions {
  /** Default `127.0.0.1`. Any other address makes the control API reachable from the network. */
  host?: string;
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /**
   * Serve an existing world instead of creating one. Its origin must be this server's
   * (`http://host:port`, so a fixed `port`), else the start rejects with a TypeError; `close` leaves
   * a world it did not create running.
   */
  world?: MockWorld;
  /** Called once per answered request with a one-line summary (the CLI's request log). */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Every failure that is the mock's, not the client's (each answered 500 where an answer is still possible). */
  onInternalError?: (error: unknown) => void;
  /** Sees every request answered and callback sent, with bodies (see `MockDispatcherOptions`). */
  observe?: (observation: MockServerObservation) => void;
  /**
   * Keeps the world in this JSON file (`--state-file`, docs/guides/state-file.md): when it exists the
   * server resumes from it (the seed is not loaded; `reset` still returns to the seed). Every change
   * is written atomically, file and directory synced, before any answer leaves (group commit), and
   * on `close`. A symbolic link is followed (a link to nothing refused); `<file>.lock` keeps a second
   * server off the file (the start rejects naming the other pid). A file that is not a valid state
   * rejects the start with an Error naming the file and the bad values, and is left as it is.
   */
  stateFile?: string;
  /**
   * The console's live events (`GET /__mock/events`): `maxStreams` open at once (default 16; the
   * next gets 429) and a comment line every `heartbeatMs` of real time (default 15 000).
   */
  events?: EventStreamOptions;
  /**
   * The request bodies the server holds at once, in bytes, across all connections (default 128 MiB):
   * each route bounds one body (1 MiB, a snapshot 64 MiB), this bounds them together. A body that
   * would pass it is answered `503` with `Retry-After: 1`, unread, and its connection closed.
   */
  maxBufferedBodyBytes?: number;
}

/**
 * What `startMockServer` resolves with once the server listens (docs/guides/msw.md shows it in use).
 * Close it when done, e.g. in `afterAll`: the port stays taken until then.
 */
export interface RunningMockServer {
  /**
   * The world served: the control API in-process (`world.state()`, `world.clock`,
   * `world.listRequests()`, …) on the same state the HTTP requests see. Yours when given as `world`.
   */
  readonly world: MockWorld;
  /**
   * `http://host:port`, with the port actually bound (`port: 0` picks a free one): the control API
   * (`/__mock`) and the console live below it; `MockControlClient`'s `baseUrl`.
   */
  readonly origin: string;
  /** The dashboard API's base URL, `http://host:port/v1`: `DashboardClient`'s `baseUrl`. */
  readonly dashboardBaseUrl: string;
  /** The rebuild API's base URL (the origin itself): `RebuildClient`'s `baseUrl`. */
  readonly rebuildBaseUrl: string;
  /** The node:http server underneath, for what the fields above do not cover (`address()`, events). */
  readonly server: Server;
  /** True when the world came from an existing `stateFile`. */
  readonly resumed: boolean;
  /** Stops serving, writes the state file one last time (if any) and frees the port. */
  close(): Promise<void>;
}

/**
 * Starts the standalone mock: both APIs and `/__mock` on one origin, over plain node:http, behind
 * the HTTP edge (host check, CORS; decisions/017).
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<RunningMockServer> {
  const host = options.host ?? "127.0.0.1";
  // Checked before binding: a bad origin or host name is the caller's mistake, not the port's.
  const policy = createEdgePolicy(host, options);
  const { maxBufferedBodyBytes: budget } = options;
  if (budget !== undefined && !(Number.isSafeInteger(budget) && budget > 0)) {
    throw new RangeError(
      `startMockServer: maxBufferedBodyBytes must be a positive whole number of bytes, got ${budget}`,
    );
  }
  // Before binding: a file another server holds, or that cannot be written, fails the start with
  // the port never taken. The lock is held from here to `close`.
  const held = options.stateFile === undefined ? undefined : await holdStateFile(options.stateFile);
  let listening: Server | undefined;
  try {
    const server = createServer();
    server.keepAliveTimeout = 5_000;
    server.on("clientError", answerClientError);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 4010, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    listening = server;
    return await serve(server, options, policy, held);
  } catch (error) {
    // The world needs the bound origin, so a bad seed or state shows only after listening: let go
    // of the port before reporting it.
    if (listening) await new Promise<void>((resolve) => listening?.close(() => resolve()));
    await held?.lock.release();
    throw error;
  }
}

interface HeldStateFile {
  /** The path as given (in messages). */
  given: string;
  /** The real path written. */
  path: string;
  lock: StateFileLock;
  /** The parsed file, or undefined for a new one. */
  saved: unknown;
}

async function holdStateFile(given: string): Promise<HeldStateFile> {
  const path = await resolveStateFile(given);
  const lock = await lockStateFile(path, given);
  try {
    // Ours alone now: what a killed server left behind (keys inside) goes.
    await removeOrphans(path);
    return { given, path, lock, saved: await readStateFile(path, given) };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/**
 * Everything after binding, with no wait between the bound port and the request handler: a client
 * that connects at once (a readiness loop) is answered.
 */
async function serve(
  server: Server,
  options: MockServerOptions,
  policy: EdgePolicy,
  held: HeldStateFile | undefined,
): Promise<RunningMockServer> {
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? "127.0.0.1";
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  const {
    world: given,
    onRequest,
    onInternalError,
    observe,
    stateFile: _stateFile,
    host: _host,
    port: _port,
    cors: _cors,
    corsOrigins: _corsOrigins,
    allowedHosts: _allowedHosts,
    events,
    maxBufferedBodyBytes,
    ...worldOptions
  } = options;
  if (given && given.origin !== origin) {
    // Its control API and its sink live under its own origin: here they would answer 404.
    throw new TypeError(`startMockServer: the world's origin is ${given.origin}, this server's ${origin}`);
  }
  const world =
    given ??
    createMockWorld({
      sha256Hex: nodeSha256Hex,
      ...(onInternalError ? { onInternalError } : {}),
      ...worldOptions,
      origin,
    });
  if (held?.saved !== undefined) restoreFrom(world, held.given, held.saved);
  const persist = held
    ? createStateFileWriter(held.path, () => world.snapshot(), {
        onError: (error) => (onInternalError ?? console.error)(error),
      })
    : undefined;
  // The console's events, while a stream is open: the world's changes, and the request journal's (a
  // request to either API recorded, the one place requests are recorded, decisions/030; a reset).
  const { journal } = coreOf(world);
  const hub = createEventHub((changed) => {
    const stopState = world.onChange(() => changed("/state"));
    const stopJournal = journal.onChange(() => changed("/requests"));
    return () => {
      stopState();
      stopJournal();
    };
  }, events);
  const dispatch = createMockDispatcher(world, {
    dashboardBaseUrl: `${origin}/v1`,
    rebuildBaseUrl: origin,
    ...(onInternalError ? { onInternalError } : {}),
    ...(observe ? { observe } : {}),
    supplied: consoleRoutes(hub),
  });
  // The state file follows the world's changes alone (the journal, fed by every request, is not in it).
  const stopWatching = persist ? world.onChange(() => persist.changed()) : undefined;
  server.on(
    "request",
    createNodeListener(dispatch, {
      origin,
      edge: createEdge(dispatch, policy),
      ...(onRequest ? { onRequest } : {}),
      ...(onInternalError ? { onInternalError } : {}),
      ...(persist ? { durable: persist.durable } : {}),
      ...(maxBufferedBodyBytes === undefined ? {} : { maxBufferedBodyBytes }),
    }),
  );
  const stop = async () => {
    if (!given) world.clock.dispose();
    stopWatching?.();
    dispatch.dispose();
    hub.close();
    await new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      server.closeAllConnections();
    });
  };
  // A new file is written at once (requests are answered meanwhile), so a path that cannot be
  // written fails the start.
  if (persist && held?.saved === undefined) {
    try {
      await persist.flush();
    } catch (error) {
      await stop();
      throw error;
    }
  }
  return {
    world,
    origin,
    dashboardBaseUrl: `${origin}/v1`,
    rebuildBaseUrl: origin,
    server,
    resumed: held?.saved !== undefined,
    close: async () => {
      try {
        await stop();
        await persist?.flush();
      } finally {
        await held?.lock.release();
      }
    },
  };
}

function restoreFrom(world: MockWorld, path: string, saved: unknown): void {
  try {
    // Whatever the file holds: restore checks every value.
    world.restore(saved as MockWorldSnapshot, { resume: true });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const problems = (error.details.fieldErrors ?? []).map((e) => `${e.path || "(root)"}: ${e.message}`);
    const shown = problems.slice(0, 10).join("; ");
    const more = problems.length > 10 ? `; and ${problems.length - 10} more` : "";
    throw new Error(`state file ${path} is not a valid mock state: ${shown}${more}`, { cause: error });
  }
}
