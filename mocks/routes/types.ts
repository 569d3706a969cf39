import { DomainError } from "../domain/errors.js";
import type { JournalCaller } from "../domain/request-journal.js";

/** The headers of a request, however the adapter holds them; names are matched case-insensitively. */
export interface HeaderReader {
  /** The header's value, or null when the request has none. */
  get(name: string): string | null;
  /** Every header, names lower-cased (the webhook sink records what it received). */
  entries(): Iterable<[string, string]>;
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

interface RouteInput<World> {
  world: World;
  req: MockRequest;
  params: Readonly<Record<string, string>>;
  /** Tells the dispatcher who is calling, once authenticated: the request journal records it. */
  identify: (caller: JournalCaller) => void;
}

export type RouteHandler<World> = (input: RouteInput<World>) => MockResponse | Promise<MockResponse>;

export interface RouteDefinition<World> {
  method: string;
  /** Path template below the API's base path, e.g. `/si/servers/{guid}`. */
  path: string;
  /** The operation's `operationId` in its document (route tables typed by the contract set it). */
  operationId?: string;
  handle: RouteHandler<World>;
  /**
   * Largest body the route reads (bytes; its operation's `x-body-limit`, src/generated/<doc>-operations.ts);
   * adapters stop reading one byte past it. Without one, its API's.
   */
  maxBodyBytes?: number;
}

/**
 * A failure that must still carry headers the route owns (the rebuild API's RateLimit-* headers on
 * every answer after the feature check). The dispatcher unwraps it before mapping the failure.
 */
export class FailureWithHeaders extends Error {
  constructor(
    readonly failure: unknown,
    readonly headers: Record<string, string>,
  ) {
    super("failure with headers");
  }
}

/** A 401 with its `WWW-Authenticate` challenge; any other failure as it is. */
export function challenged(failure: unknown, challenge: { "www-authenticate": string }): unknown {
  return failure instanceof DomainError && failure.code === "UNAUTHORIZED"
    ? new FailureWithHeaders(failure, challenge)
    : failure;
}
