// The client's side of an exchange the proxy forwards, checked by the compiled validators the mock
// runs on its own requests (src/generated/<document>-validators.js): a request that breaks the
// contract is a violation in the report, whatever the service answered.
import { operations as dashboardOperations } from "../../src/generated/dashboard-validators.js";
import { operations as rebuildOperations } from "../../src/generated/rebuild-validators.js";
import type { OperationValidators } from "../../src/generated/validator-types.js";
import type { ContractDocument, Violation } from "../assumptions/report.js";
import { DomainError, type FieldError } from "../domain/errors.js";
import { checkedBody } from "../domain/validation/check.js";
import { readParameters, readPathParameters } from "../domain/validation/parameters.js";

const OPERATIONS: Readonly<Record<ContractDocument, readonly OperationValidators[]>> = {
  dashboard: Object.values(dashboardOperations),
  rebuild: Object.values(rebuildOperations),
};

/** A request as the proxy received it; `path` is the document's path (the dashboard's without `/v1`). */
export interface CheckedRequest {
  readonly document: ContractDocument;
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  /** The body's text; null for none. */
  readonly body: string | null;
}

/** The operation `method path` is, with its path parameters, or undefined when the document has none. */
function operationOf(request: CheckedRequest) {
  const segments = request.path.split("/");
  const method = request.method.toUpperCase();
  for (const operation of OPERATIONS[request.document] ?? []) {
    if (operation.method !== method) continue;
    const parts = operation.template.split("/");
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const fits = parts.every((part, n) => {
      const segment = segments[n] as string;
      const name = /^\{(.+)\}$/.exec(part)?.[1];
      if (name === undefined) return part === segment;
      params[name] = decodeURIComponent(segment);
      return segment !== "";
    });
    if (fits) return { operation, params };
  }
  return undefined;
}

/** The field errors of a check that refuses with VALIDATION_FAILED; any other error is the caller's. */
function problemsOf(check: () => unknown): readonly FieldError[] {
  try {
    check();
    return [];
  } catch (error) {
    if (error instanceof DomainError) return error.details.fieldErrors ?? [];
    throw error;
  }
}

/**
 * Where `request` breaks its operation's contract, as violations (`pointer`: the operation's
 * parameters or request body), or none. A path or method the document does not have is the
 * recorder's to judge (an assumed operation the service may lack), not a violation here.
 */
export function requestViolations(request: CheckedRequest, exchange: string): Violation[] {
  let found: ReturnType<typeof operationOf>;
  try {
    found = operationOf(request);
  } catch {
    // A path segment that is not valid percent-encoding names no operation.
    return [];
  }
  if (!found) return [];
  const { operation, params } = found;
  const at = `/paths/${operation.template.replaceAll("~", "~0").replaceAll("/", "~1")}/${operation.method.toLowerCase()}`;
  const out: Violation[] = [];
  const add = (pointer: string, what: string, problems: readonly FieldError[]) => {
    if (problems.length === 0) return;
    const listed = problems
      .slice(0, 3)
      .map((p) => `${p.path || what} ${p.message}`)
      .join("; ");
    out.push({ document: request.document, pointer, exchange, evidence: `the request's ${what}: ${listed}` });
  };
  if (operation.path && readPathParameters(operation.path, params) === undefined) {
    add(`${at}/parameters`, "path", [
      { type: "invalid_value", path: "", message: "names nothing that can exist" },
    ]);
  }
  const { query } = operation;
  if (query)
    add(
      `${at}/parameters`,
      "query",
      problemsOf(() => readParameters(query, (name) => request.query.getAll(name))),
    );
  const { body: validator } = operation;
  if (validator) {
    let parsed: unknown;
    let json = true;
    try {
      parsed = request.body === null || request.body === "" ? undefined : JSON.parse(request.body);
    } catch {
      json = false;
    }
    add(
      `${at}/requestBody`,
      "body",
      json
        ? problemsOf(() => checkedBody(validator, parsed))
        : [{ type: "invalid_type", path: "", message: "is not JSON" }],
    );
  }
  return out;
}
