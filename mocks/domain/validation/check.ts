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
 * A request body (parsed JSON; `undefined` when the request had none) checked by its operation's
 * compiled schema, with the schema's defaults filled in, typed as what the schema describes; otherwise
 * VALIDATION_FAILED with a field error per invalid field. A missing body is one `required` error at
 * the root when the operation requires one, and passes as `undefined` when it does not. A document's
 * format `version` the mock does not know (a snapshot's, `MockSnapshot`) is reported alone: nothing
 * else can be read reliably in a format it does not know.
 */
export function checkedBody<T>(validator: NonNullable<OperationValidators["body"]>, body: unknown): T {
  if (body === undefined) {
    if (validator.required) throw validationFailed([{ type: "required", path: "", message: "is required" }]);
    return undefined as T;
  }
  const problems = schemaProblems(validator.validate, body);
  if (problems.length === 0) return body as T;
  const version = problems.find(({ path }) => path === "version");
  throw validationFailed(version ? [version] : problems);
}
