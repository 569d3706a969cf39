import {
  carriedHeaders as dashboardCarried,
  errorStatuses as dashboardErrors,
} from "../../src/generated/dashboard-operations.js";
import { documentedFailures } from "../../src/generated/documented-failures.js";
import {
  carriedHeaders as controlCarried,
  errorStatuses as controlErrors,
} from "../../src/generated/mock-control-operations.js";
import {
  carriedHeaders as rebuildCarried,
  errorStatuses as rebuildErrors,
} from "../../src/generated/rebuild-operations.js";
import { DomainError, type DomainErrorCode } from "../domain/errors.js";
import type { MockResponse } from "../routes/types.js";

/**
 * The status of each error code, as the documents state it (src/generated/<doc>-operations.ts): a
 * code has one status in every document that answers it (the generator fails otherwise), so one
 * table serves every API.
 */
const STATUS: Readonly<Record<DomainErrorCode, number>> = {
  ...dashboardErrors,
  ...rebuildErrors,
  ...controlErrors,
};

/**
 * The header carrying each value an error answer adds (`x-carries`): one header per value in every
 * document (the generator fails otherwise).
 */
const CARRIED = { ...dashboardCarried, ...rebuildCarried, ...controlCarried };

/** The contract's error envelope. */
function envelope(message: string, code: string): { message: string; error: { code: string } } {
  return { message, error: { code } };
}

/**
 * 503 in the APIs' envelope: nothing changed, and `Retry-After` tells a client when to try again.
 * An injected fault (`errorRate`, 0 s: at once) and a request the server will not take on now (1 s;
 * `why`: what is already under way, e.g. the standalone server's `maxBufferedBodyBytes`, the proxy's
 * `maxExchanges`).
 */
function unavailable(message: string, retryAfterSeconds: number): MockResponse {
  return {
    status: 503,
    headers: { [CARRIED["retry-after"]]: String(retryAfterSeconds) },
    body: envelope(message, "INTERNAL"),
  };
}

/** An injected fault's 503: before the request reaches any API. */
export const injectedFaultResponse = (): MockResponse =>
  unavailable("Injected fault: service unavailable", 0);

/** A 503 for a request the server will not take on now (`why`). */
export const busyResponse = (why: string): MockResponse => unavailable(`${why}; retry shortly`, 1);

/**
 * A scripted fault's answer (decisions/044): the status as `operationId` documents it, its example
 * body and required headers; `500` and `503` under a `default` response as the mock answers an
 * internal error or an injected fault. The rule was checked when it was set.
 */
export function scriptedFaultResponse(operationId: string, status: number): MockResponse {
  const documented = documentedFailures[operationId]?.statuses[String(status)];
  if (documented) {
    return { status, headers: { ...documented.headers }, body: structuredClone(documented.body) };
  }
  return status === 503 ? injectedFaultResponse() : errorResponse(new Error("scripted fault"));
}

/**
 * The one place where a failure becomes an HTTP answer. Anything that is not a DomainError is a
 * bug in the mock: it answers 500 with a generic message and never leaks internals.
 */
export function errorResponse(error: unknown, headers: Record<string, string> = {}): MockResponse {
  if (!(error instanceof DomainError)) {
    return {
      status: 500,
      headers,
      body: envelope("The mock hit an internal error", "INTERNAL"),
    };
  }
  const { fieldErrors, retryAfterSeconds, allow } = error.details;
  const out: Record<string, string> = Object.assign({}, headers);
  if (retryAfterSeconds !== undefined) out[CARRIED["retry-after"]] = String(retryAfterSeconds);
  if (allow) out[CARRIED["allowed-methods"]] = allow.join(", ");
  const body: Record<string, unknown> = envelope(error.message, error.code);
  if (fieldErrors) body.errors = fieldErrors.map(({ type, path, message }) => ({ type, path, message }));
  return { status: STATUS[error.code], headers: out, body };
}
