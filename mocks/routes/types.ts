import type { DomainError } from "../domain/errors.js";

/** The headers of a request, however the adapter holds them; names are matched case-insensitively. */
export interface HeaderReader {
  get(name: string): string | null;
}

/** A request as every adapter hands it to the dispatcher. */
export interface MockRequest {
  method: string;
  url: URL;
  headers: HeaderReader;
  /**
   * The raw body, or null when there is none. Adapters may stop buffering one byte past the body
   * limit: the size check only needs to know that the limit was passed.
   */
  body: Uint8Array | null;
}

/** A JSON response (or an empty one when `body` is undefined). */
export interface MockResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** What the dispatcher tells an adapter to do. */
export type DispatchResult =
  | { kind: "respond"; response: MockResponse; delayMs: number }
  /** Drop the connection without an answer (fault injection). */
  | { kind: "reset"; delayMs: number }
  /** Not a path of the mock: let the request through (MSW) or answer 404 (the node server). */
  | { kind: "pass" };

export interface RouteInput<World> {
  world: World;
  req: MockRequest;
  params: Readonly<Record<string, string>>;
}

export type RouteHandler<World> = (input: RouteInput<World>) => MockResponse | Promise<MockResponse>;

export interface RouteDefinition<World> {
  method: string;
  /** Path template below the API's base path, e.g. `/si/servers/{guid}`. */
  path: string;
  handle: RouteHandler<World>;
}

/** Headers a route wants on its error responses too (the rebuild API's RateLimit-* headers). */
export interface ErrorWithHeaders {
  error: DomainError;
  headers: Record<string, string>;
}
