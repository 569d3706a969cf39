// Runs a schema compiled from the contract (src/generated/*-validators.js) on a value and turns what
// it reports into field errors (schema-errors.ts): the mock's one way of checking input.
import type { CompiledSchema, OperationValidators } from "../../../src/generated/validator-types.js";
import { type FieldError, validationFailed } from "../errors.js";
import { fieldErrorsOf } from "./schema-errors.js";

/** The field errors of `value` against `schema` below `base`; empty when it is valid. */
export function schemaProblems(schema: CompiledSchema, value: unknown, base = ""): FieldError[] {
  return schema(value) ? [] : fieldErrorsOf(schema.errors ?? [], base);
}

/**
 * `value` once `schema` accepts it (with the schema's defaults filled in), typed as what the schema
 * describes; otherwise VALIDATION_FAILED with a field error per invalid field, paths below `base`.
 */
function checked<T>(schema: CompiledSchema, value: unknown, base = ""): T {
  const problems = schemaProblems(schema, value, base);
  if (problems.length > 0) throw validationFailed(problems);
  return value as T;
}

/**
 * A request body (parsed JSON; `undefined` when the request had none) checked by its operation's
 * compiled schema. A missing body is one `required` error at the root when the operation requires
 * one, and passes as `undefined` when it does not.
 */
export function checkedBody<T>(validator: NonNullable<OperationValidators["body"]>, body: unknown): T {
  if (body !== undefined) return checked<T>(validator.validate, body);
  if (validator.required) throw validationFailed([{ type: "required", path: "", message: "is required" }]);
  return undefined as T;
}
