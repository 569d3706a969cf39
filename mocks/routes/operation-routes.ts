// A route table typed by the contract: keyed by the generated paths and methods (src/generated/
// *-validators.d.ts `routes`), each handler typed by its operation, its inputs checked by the
// operation's compiled validators before it runs. A path, method or operation the document does not
// have, a missing one, or an answer it does not document, fails to compile.
import type { OperationValidators } from "../../src/generated/validator-types.js";
import { DomainError } from "../domain/errors.js";
import type { JournalCaller } from "../domain/request-journal.js";
import { checkedBody } from "../domain/validation/check.js";
import { readParameters, readPathParameters } from "../domain/validation/parameters.js";
import { readJsonBody } from "./body.js";
import type { SuccessReply } from "./typed-reply.js";
import type { MockRequest, MockResponse, RouteDefinition } from "./types.js";

type Reply<Operation> = SuccessReply<Operation> | Promise<SuccessReply<Operation>>;

/** What an operation's handler gets: the API's context, the request, and the checked inputs. */
type HandlerInput<World, Context, Inputs> = Context & Inputs & { world: World; req: MockRequest };

type Handler<World, Context, Inputs, Operation> = (
  input: HandlerInput<World, Context, Inputs>,
) => Reply<Operation>;

/**
 * One handler for every operation of a document: `Routes` is the document's generated `routes`
 * (path → method → operationId), `Inputs` its `OperationInputs`, `Operations` openapi-typescript's
 * `operations` (which types the answers).
 */
type OperationTable<World, Routes, Inputs, Operations, Context> = {
  -readonly [Path in keyof Routes]: {
    -readonly [Method in keyof Routes[Path]]: Routes[Path][Method] extends keyof Inputs & keyof Operations
      ? Handler<World, Context, Inputs[Routes[Path][Method]], Operations[Routes[Path][Method]]>
      : never;
  };
};

/** Every operation id of a document's generated `routes`. */
type OperationIdOf<Routes> = { [Path in keyof Routes]: Routes[Path][keyof Routes[Path]] }[keyof Routes] &
  string;

/**
 * What runs around every operation of an API, before its inputs are read: authentication and
 * whatever else comes first in the check order. `next` reads the inputs and runs the operation.
 * `OperationId` is the document's operation ids (`routes`), so a guard cannot name another's.
 */
export type ApiGuard<World, Context, OperationId extends string = string> = (
  request: {
    world: World;
    req: MockRequest;
    operationId: OperationId;
    /** Names the caller once authentication succeeded (the request journal records it). */
    identify: (caller: JournalCaller) => void;
  },
  next: (context: Context) => MockResponse | Promise<MockResponse>,
) => MockResponse | Promise<MockResponse>;

interface OperationApi<World, Routes, Inputs, Operations, Context> {
  routes: Routes;
  /** The document's operation registry (src/generated/<doc>-operations.ts): each operation's body limit. */
  registry: { readonly [Id in keyof Inputs]: { readonly bodyLimit: number } };
  /** One document's compiled validators: every operation of `Inputs`, none of another document. */
  validators: { readonly [Id in keyof Inputs]: OperationValidators };
  guard: ApiGuard<World, Context, OperationIdOf<Routes>>;
  handlers: OperationTable<World, Routes, Inputs, Operations, Context>;
}

/** The route definitions of a table, for the router. */
export function mountOperations<World, Routes, Inputs, Operations, Context>(
  api: OperationApi<World, Routes, Inputs, Operations, Context>,
): RouteDefinition<World>[] {
  const definitions: RouteDefinition<World>[] = [];
  const handlers = api.handlers as unknown as Record<string, Record<string, AnyHandler<World> | undefined>>;
  const registry = api.registry as Readonly<Record<string, { readonly bodyLimit: number }>>;
  for (const [template, methods] of Object.entries(api.routes as Record<string, Record<string, string>>)) {
    for (const [method, operationId] of Object.entries(methods)) {
      const handle = handlers[template]?.[method];
      const validators = (api.validators as Readonly<Record<string, OperationValidators>>)[operationId];
      const maxBodyBytes = registry[operationId]?.bodyLimit;
      if (!handle || !validators || maxBodyBytes === undefined) {
        throw new Error(`no route for ${method.toUpperCase()} ${template}`);
      }
      const id = operationId as OperationIdOf<Routes>;
      definitions.push({
        method: method.toUpperCase(),
        path: template,
        operationId,
        maxBodyBytes,
        handle: ({ world, req, params, identify }) =>
          api.guard({ world, req, operationId: id, identify }, (context) => {
            // One object of a fixed shape, filled in place: spreading objects on every request
            // costs microseconds (decisions/026).
            const input: Record<string, unknown> = readInputs(validators, req, params, maxBodyBytes);
            input.world = world;
            input.req = req;
            return handle(Object.assign(input, context) as unknown as { world: World; req: MockRequest }) as
              | MockResponse
              | Promise<MockResponse>;
          }),
      });
    }
  }
  return definitions;
}

const none = (): readonly string[] => [];

type AnyHandler<World> = (input: { world: World; req: MockRequest }) => unknown;

/**
 * The operation's inputs in the decided order: the body (413, 415, then 400), the query and header
 * parameters (400), then the path parameters (404: an id that cannot exist is not found).
 */
function readInputs(
  validators: OperationValidators,
  req: MockRequest,
  params: Readonly<Record<string, string>>,
  maxBodyBytes: number,
) {
  const body = validators.body ? checkedBody(validators.body, readJsonBody(req, maxBodyBytes)) : undefined;
  // Without a query string, no URLSearchParams is made: the common case of a list's first page.
  const query = validators.query
    ? readParameters(
        validators.query,
        req.url.search === "" ? none : (name) => req.url.searchParams.getAll(name),
      )
    : undefined;
  const header = validators.header
    ? readParameters(validators.header, (name) => {
        const value = req.headers.get(name);
        return value === null ? [] : [value];
      })
    : undefined;
  let path: unknown;
  if (validators.path) {
    path = readPathParameters(validators.path, params);
    if (path === undefined) throw new DomainError("NOT_FOUND", `Nothing can exist at ${req.url.pathname}`);
  }
  return { body, query, header, path, world: undefined as unknown, req: undefined as unknown };
}
