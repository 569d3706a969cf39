// What each of MockControlClient's generated methods runs (src/generated/mock-control-client.ts,
// decisions/050): one call of an operation of the generated table, on the SDK's transport.
import {
  type APIPromise,
  type CommonClientOptions,
  checkBaseUrl,
  createTransport,
  type RequestOptions,
} from "../../src/core/index.js";
import type { paths } from "../../src/generated/mock-control.js";
import { controlMethods } from "../../src/generated/mock-control-methods.js";
import { operations as controlOperations } from "../../src/generated/mock-control-operations.js";
import type { ControlOperationId, ControlOutput } from "./operations.js";

export interface MockControlClientOptions extends CommonClientOptions {
  /**
   * The mock's origin (scheme, host and port), e.g. `http://127.0.0.1:4010` or `startMockServer`'s
   * `origin`; the control API is below it, at `/__mock`. A path, user info, a query or a fragment is
   * a TypeError.
   */
  readonly baseUrl: string;
}

/** One call of the operation `id` with the method's arguments (path parameters, then its body or query). */
export type ControlCall = <Id extends ControlOperationId>(
  id: Id,
  args: readonly unknown[],
  opts: RequestOptions | undefined,
) => APIPromise<ControlOutput<Id>>;

/** openapi-fetch's `request`, for a method and path known at run time only (the table's). */
type AnyRequest = (
  method: string,
  path: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** The calls of a client of the mock at `options.baseUrl` (TypeError for a bad option). */
export function controlCall(options: MockControlClientOptions): ControlCall {
  const origin = checkBaseUrl("MockControlClient", options.baseUrl);
  if (new URL(origin).pathname !== "/") {
    throw new TypeError(
      "MockControlClient: baseUrl must be the mock's origin (scheme, host and port), without a path: the control API is below it at /__mock",
    );
  }
  const transport = createTransport<paths>({
    // Snapshots and states of big worlds are larger than the SDK's 4 MiB default: the client reads
    // as much as the snapshot route takes (restoreMockSnapshot's x-body-limit, 64 MiB), so what one
    // mock gives another takes back.
    maxResponseBytes: controlOperations.restoreMockSnapshot.bodyLimit,
    ...options,
    client: "MockControlClient",
    baseUrl: `${origin}/__mock`,
    authHeaders: {},
    secrets: [],
  });
  return (id, args, opts) => {
    const operation = controlMethods[id];
    const path = Object.fromEntries(operation.pathParameters.map((name, i) => [name, args[i]]));
    const input = args[operation.pathParameters.length];
    const init =
      input === undefined
        ? {}
        : operation.input === "query"
          ? { query: asQuery(input as Readonly<Record<string, unknown>>) }
          : { body: input };
    const call = transport(
      operation.retry,
      opts,
      (http, callInit) =>
        (http.request as unknown as AnyRequest)(operation.method.toUpperCase(), operation.path, {
          ...callInit,
          params: { path, ...("query" in init ? { query: init.query } : {}) },
          ...("body" in init ? { body: init.body } : {}),
        }),
      // A 204 has no data; openapi-fetch would give an empty object.
      operation.status === 204 ? none : (data) => data,
    );
    // The data of the operation's success: ControlOutput is that by its definition (operations.ts).
    return call as APIPromise<ControlOutput<typeof id>>;
  };
}

/**
 * A query as the URL carries it: a value that is not a string as its JSON text (`listRequests`'
 * `body` pattern; for a number or a boolean the same text as its plain form).
 */
function asQuery(query: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(query).map(([name, value]) => [
      name,
      typeof value === "string" || value === undefined ? value : JSON.stringify(value),
    ]),
  );
}

/** A 204's data: nothing. */
const none = (): undefined => undefined;
