// A world's control methods (decisions/050), made from the generated table of openapi/mock-control.yaml's
// operations (src/generated/mock-control-methods.ts): each method checks its arguments with the
// operation's compiled validators, as a request's route does, then calls the world's handler. Over
// HTTP the route checks and calls the same handler, so every input is checked once either way.
import {
  type ControlHandlers,
  controlMethods,
  type MockControl,
} from "../../src/generated/mock-control-methods.js";
import { operations as validators } from "../../src/generated/mock-control-validators.js";
import type { OperationValidators, ParameterValidator } from "../../src/generated/validator-types.js";
import { DomainError } from "../domain/errors.js";
import { checkedBody } from "../domain/validation/check.js";
import { checkedParameters, readPathParameters } from "../domain/validation/parameters.js";
import type { ControlOperationId } from "./operations.js";

type Operation = (typeof controlMethods)[ControlOperationId];

/** The world's control methods, each checking its input and calling `handlers`' function. */
export function worldMethods(handlers: ControlHandlers): MockControl {
  // Typed so that an operation of ControlOperationId without an `x-mock-method` fails to compile.
  const table: Readonly<Record<ControlOperationId, Operation>> = controlMethods;
  const methods: Record<string, (...args: unknown[]) => unknown> = {};
  for (const id of Object.keys(table) as ControlOperationId[]) {
    const operation = table[id];
    // The table's operation and its handler agree by construction (both generated from one
    // document, the handler typed by it); here they are only looked up by the same key.
    const handler = handlers[id] as (...args: unknown[]) => unknown;
    const checked = (args: unknown[]) => checkedArguments(validators[id], operation, args);
    methods[operation.name] = operation.waits
      ? // A promise's method reports a bad input as a rejection, as any of its failures.
        async (...args) => handler(...checked(args))
      : (...args) => handler(...checked(args));
  }
  return methods as unknown as MockControl;
}

/**
 * The method's arguments once checked, as a request's would be: each path parameter as its route
 * reads it (NOT_FOUND for one that cannot exist), then the body or the query (VALIDATION_FAILED).
 * Arguments after those (a world's own options) pass unchanged.
 */
function checkedArguments(validators: OperationValidators, operation: Operation, args: unknown[]): unknown[] {
  const checked = [...args];
  const { pathParameters, input } = operation;
  if (validators.path && pathParameters.length > 0) {
    const given = Object.fromEntries(pathParameters.map((name, i) => [name, String(args[i])]));
    const path = readPathParameters<Record<string, unknown>>(validators.path, given);
    if (path === undefined) {
      const values = pathParameters.map((name, i) => `${name} ${JSON.stringify(args[i])}`);
      throw new DomainError("NOT_FOUND", `Nothing can exist with ${values.join(" and ")}`);
    }
    pathParameters.forEach((name, i) => {
      checked[i] = path[name];
    });
  }
  const at = pathParameters.length;
  if (input === "body" && validators.body) checked[at] = checkedBody(validators.body, args[at]);
  if (input === "query" && validators.query) {
    checked[at] = checkedParameters(validators.query, asText(validators.query, args[at]));
  }
  return checked;
}

/**
 * A query as its route reads it: a string parameter's value that is not a string as its JSON text
 * (`listRequests`' `body` pattern, which may be given as the value itself). The others stay: their
 * schema takes the number or boolean the URL's text is read as.
 */
function asText(validator: ParameterValidator, query: unknown): unknown {
  if (typeof query !== "object" || query === null || Array.isArray(query)) return query;
  const text: Record<string, unknown> = { ...query };
  for (const { name, type } of validator.parameters) {
    const value = text[name];
    if (type === "string" && value !== undefined && typeof value !== "string")
      text[name] = JSON.stringify(value);
  }
  return text;
}
