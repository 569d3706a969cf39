import { type Clock, createClock } from "../../../mocks/domain/clock.js";
import {
  createDashboardDomain,
  type DashboardDomain,
  type DashboardSeed,
  defaultDashboardSeed,
  type Principal,
} from "../../../mocks/domain/dashboard/index.js";
import { DomainError, type DomainErrorCode, type FieldError } from "../../../mocks/domain/errors.js";
import { seededRandom } from "../../../mocks/domain/random.js";
import { checkSeed } from "../../../mocks/domain/seed.js";
import { checkedBody } from "../../../mocks/domain/validation/check.js";
import { readParameters, readPathParameters } from "../../../mocks/domain/validation/parameters.js";
import { type OperationInputs, operations } from "../../../src/generated/dashboard-validators.js";

export { SERVER_1, TEAM_A_GUID, TEAM_B_GUID } from "../../support/default-seed.js";

export const T0 = Date.parse("2026-11-22T00:00:00Z");
export const T0_TEXT = "2026-11-22T00:00:00+00:00";

type Id = keyof OperationInputs;

/** The body as the route hands it on: checked by the operation's compiled validator. */
function body<Op extends Id>(operation: Op, value: unknown): OperationInputs[Op]["body"] {
  const validator = operations[operation].body;
  if (!validator) throw new Error(`${operation} takes no body`);
  return checkedBody(validator, value);
}

/** The query as the route hands it on: serialization rules, then the compiled validator. */
function query<Op extends Id>(operation: Op, text = ""): OperationInputs[Op]["query"] {
  const validator = operations[operation].query;
  if (!validator) throw new Error(`${operation} takes no query`);
  const params = new URLSearchParams(text);
  return readParameters(validator, (name) => params.getAll(name));
}

/** The path parameters as the route hands them on; NOT_FOUND for a value that cannot exist. */
function path<Op extends Id>(operation: Op, values: Record<string, string>): OperationInputs[Op]["path"] {
  const validator = operations[operation].path;
  if (!validator) throw new Error(`${operation} takes no path parameters`);
  const read = readPathParameters<OperationInputs[Op]["path"]>(validator, values);
  if (read === undefined) throw new DomainError("NOT_FOUND", "Nothing can exist at this path");
  return read;
}

/**
 * The dashboard domain as the API reaches it: each operation's raw input (a query string, parsed
 * JSON, a path segment) goes through the contract's compiled validators first, as the route does.
 */
interface ApiDomain
  extends Omit<
    DashboardDomain,
    | "listServers"
    | "connectServers"
    | "deleteServer"
    | "listApiTokens"
    | "createApiToken"
    | "getApiToken"
    | "deleteApiToken"
    | "sendInvitations"
    | "getTeamGuid"
  > {
  listServers(principal: Principal, query: string): ReturnType<DashboardDomain["listServers"]>;
  connectServers(principal: Principal, body: unknown): ReturnType<DashboardDomain["connectServers"]>;
  deleteServer(principal: Principal, guid: string): void;
  listApiTokens(principal: Principal, query: string): ReturnType<DashboardDomain["listApiTokens"]>;
  createApiToken(principal: Principal, body: unknown): ReturnType<DashboardDomain["createApiToken"]>;
  getApiToken(principal: Principal, id: string): ReturnType<DashboardDomain["getApiToken"]>;
  deleteApiToken(principal: Principal, id: string): void;
  sendInvitations(principal: Principal, body: unknown): ReturnType<DashboardDomain["sendInvitations"]>;
  getTeamGuid(principal: Principal, query: string): ReturnType<DashboardDomain["getTeamGuid"]>;
}

export interface Fixture {
  clock: Clock;
  domain: ApiDomain;
  /** Authenticates with a seed or created secret. */
  as(secret: string): Principal;
}

/** The domain loaded from `seed`, which is first checked as a world checks it (`Invalid seed: …`). */
export function setup(seed: DashboardSeed = defaultDashboardSeed): Fixture {
  const clock = createClock({ frozenAt: T0 });
  checkSeed({ dashboard: seed });
  const raw = createDashboardDomain({ clock, random: seededRandom(42), seed });
  // As the route: authorization (403) before the input is read (400, 404).
  const authorized = (p: Principal, operation: Id) => {
    raw.authorize(p, operation);
    return p;
  };
  const domain: ApiDomain = {
    ...raw,
    listServers: (p, text) => raw.listServers(authorized(p, "listServers"), query("listServers", text)),
    connectServers: (p, value) =>
      raw.connectServers(authorized(p, "connectServers"), body("connectServers", value)),
    deleteServer: (p, guid) =>
      raw.deleteServer(authorized(p, "deleteServer"), path("deleteServer", { guid }).guid),
    listApiTokens: (p, text) =>
      raw.listApiTokens(authorized(p, "listApiTokens"), query("listApiTokens", text)),
    createApiToken: (p, value) =>
      raw.createApiToken(authorized(p, "createApiToken"), body("createApiToken", value)),
    getApiToken: (p, id) => raw.getApiToken(authorized(p, "getApiToken"), path("getApiToken", { id }).id),
    deleteApiToken: (p, id) =>
      raw.deleteApiToken(authorized(p, "deleteApiToken"), path("deleteApiToken", { id }).id),
    sendInvitations: (p, value) =>
      raw.sendInvitations(authorized(p, "sendInvitations"), body("sendInvitations", value)),
    getTeamGuid: (p, text) => raw.getTeamGuid(authorized(p, "getTeamGuid"), query("getTeamGuid", text)),
  };
  return { clock, domain, as: (secret) => raw.authenticate(`Bearer ${secret}`) };
}

/** A query string as given in a URL (`q("page=2")`), for `listServers` and the like. */
export function q(text = ""): string {
  return text;
}

/** The DomainError `run` throws; fails the test when it throws nothing or something else. */
function domainError(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("Expected a DomainError, nothing was thrown");
}

export function expectCode(run: () => unknown, code: DomainErrorCode): DomainError {
  const error = domainError(run);
  if (error.code !== code) throw new Error(`Expected ${code}, got ${error.code}: ${error.message}`);
  return error;
}

/** The `[type, path]` pairs of a VALIDATION_FAILED error, in order. */
export function fieldErrors(run: () => unknown): Array<[FieldError["type"], string]> {
  const error = expectCode(run, "VALIDATION_FAILED");
  return (error.details.fieldErrors ?? []).map((e) => [e.type, e.path]);
}
