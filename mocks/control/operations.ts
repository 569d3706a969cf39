// The control API's operations as types: one input and one output per operation, derived from the
// types generated from openapi/mock-control.yaml. A world's operations (in-process, mocks/world.ts)
// and MockControlClient's methods (over HTTP) are both typed by these, so they cannot drift apart
// (decisions/031). Types only: nothing here exists at run time.
import type { components, operations } from "../../src/generated/mock-control.js";

/** Every schema of openapi/mock-control.yaml, by name: `MockControlSchemas["JournalEntry"]`. */
export type MockControlSchemas = components["schemas"];

/**
 * The operations a world and `MockControlClient` offer: every operation of the control API but the
 * built-in webhook receiver's `POST` (`receiveSinkCallback`), which is where the mock delivers
 * callbacks, and the console's page and event stream (`openConsole`, `streamEvents`: for a browser,
 * served by the standalone server only, decisions/032); none of them steers the mock.
 */
export type ControlOperationId = Exclude<
  keyof operations,
  "receiveSinkCallback" | "openConsole" | "streamEvents"
>;

/** What an operation's request body carries (`never` for an operation that takes none). */
export type ControlInput<Id extends ControlOperationId> =
  NonNullable<operations[Id]["requestBody"]> extends { content: { "application/json": infer Body } }
    ? Body
    : never;

/** An operation's path parameters (`never` when its path has none). */
export type ControlPath<Id extends ControlOperationId> = NonNullable<operations[Id]["parameters"]["path"]>;

/** An operation's query parameters (`never` when it takes none). */
export type ControlQuery<Id extends ControlOperationId> = NonNullable<operations[Id]["parameters"]["query"]>;

/**
 * `listRequests`' query as the world and `MockControlClient` take it: `body`, the JSON value a
 * journalled body must contain, as JSON text (what `GET /__mock/requests?body=` carries) or as the
 * value itself (any JSON value but a string, which is read as JSON text: `'"blue"'` for the string).
 */
export type RequestsQuery = Omit<ControlQuery<"listRequests">, "body"> & {
  body?: string | number | boolean | null | readonly unknown[] | { readonly [key: string]: unknown };
};

/** What an operation answers on success: its JSON body, or `undefined` when it answers `204` without one. */
export type ControlOutput<Id extends ControlOperationId> =
  operations[Id]["responses"][keyof operations[Id]["responses"] & (200 | 201 | 202 | 204)] extends {
    content: { "application/json": infer Body };
  }
    ? Body
    : undefined;

/** A partner id as the control API's paths take it. */
export type PartnerId = ControlPath<"upsertPartner">["partnerId"];

/** A rebuild's request id as the control API's paths take it. */
export type RequestId = ControlPath<"completeRebuild">["requestId"];
