import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createMockWorld, type MockWorld, type MockWorldOptions } from "../world.js";
import { createMockDispatcher, type MockObservation } from "./mock-dispatcher.js";
import { createNodeListener, type RequestLogEntry } from "./node-listener.js";
import { nodeSha256Hex } from "./node-sha256.js";

export interface MockServerOptions extends Omit<MockWorldOptions, "origin"> {
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Serve an existing world instead of creating one (its origin must be this server's). */
  world?: MockWorld;
  onRequest?: (entry: RequestLogEntry) => void;
  onInternalError?: (error: unknown) => void;
  /** Sees every request answered and callback sent, with bodies (see `MockDispatcherOptions`). */
  observe?: (observation: MockObservation) => void;
}

export interface RunningMockServer {
  readonly world: MockWorld;
  /** `http://host:port`: the rebuild base URL and the control API's origin. */
  readonly origin: string;
  /** `http://host:port/v1`. */
  readonly dashboardBaseUrl: string;
  readonly rebuildBaseUrl: string;
  readonly server: Server;
  close(): Promise<void>;
}

/** Starts the standalone mock: both APIs and `/__mock` on one origin, over plain node:http. */
export async function startMockServer(options: MockServerOptions = {}): Promise<RunningMockServer> {
  const host = options.host ?? "127.0.0.1";
  const server = createServer();
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 4010, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  const {
    world: given,
    onRequest,
    onInternalError,
    observe,
    host: _host,
    port: _port,
    ...worldOptions
  } = options;
  let world: MockWorld;
  try {
    world = given ?? createMockWorld({ sha256Hex: nodeSha256Hex, ...worldOptions, origin });
  } catch (error) {
    // The world needs the bound origin, so a bad seed shows only after listening: let go of the
    // port before reporting it.
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  }
  const dispatch = createMockDispatcher(world, {
    dashboardBaseUrl: `${origin}/v1`,
    rebuildBaseUrl: origin,
    ...(onInternalError ? { onInternalError } : {}),
    ...(observe ? { observe } : {}),
  });
  server.on("request", createNodeListener(dispatch, { origin, ...(onRequest ? { onRequest } : {}) }));
  return {
    world,
    origin,
    dashboardBaseUrl: `${origin}/v1`,
    rebuildBaseUrl: origin,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        world.clock.dispose();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
