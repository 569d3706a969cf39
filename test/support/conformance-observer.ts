// Checks everything a mock does on the wire against the contract, for every mock the test suite
// builds (conformance-setup.ts attaches `suiteLog`'s observer to each). Per test file, the log keeps
// the violations not yet reported (the setup fails the test they happened in) and which documented
// responses and callback shapes were seen conforming, which the coverage report adds up across files.
import type { MockDispatcherOptions, MockObservation, MockWorld } from "../../mocks/index.js";
import type { MockServerObservation } from "../../mocks/node.js";
import { onFileEnd, registerSuiteLog } from "./conformance-registry.js";
import {
  callbackShapeKey,
  documentedCallbackShapes,
  documentedStatus,
  EDGE_RESPONSES,
  responseKey,
} from "./contract-inventory.js";
import {
  allowedMethods,
  type ContractApi,
  callbackViolations,
  contract,
  contractViolations,
  findPathTemplate,
  isObject,
  schemaErrors,
} from "./contract-validator.js";
import { documentedRuleOf } from "./documented-rules.js";
import { findOperation, requestViolations } from "./request-validator.js";
import { takeZodDisagreements } from "./zod-agreement.js";

/** What one test file contributed. */
export interface ConformanceRecord {
  file: string;
  /** Requests to either API checked in both directions. */
  requests: number;
  /** Answers the standalone server's edge gave in front of the APIs (preflights, refusals). */
  edgeAnswers?: number;
  /** Answers of the control API (`/__mock`) checked against openapi/mock-control.yaml. */
  controlAnswers?: number;
  /** Of those, requests that break the contract (each answered with a documented 4xx, or reported). */
  invalidRequests: number;
  callbacks: number;
  /** Keys of documented responses and callback shapes seen conforming. */
  covered: string[];
}

// The server's observations (with `edge`) are the widest: a handler set's are one of them.
type RequestObservation = Extract<MockServerObservation, { kind: "request" }>;

const REBUILD_SCOPE = "/api/integration/partners/hostpanel";
const MAX_SHOWN = 2000;

const noCounts = () => ({ requests: 0, invalidRequests: 0, callbacks: 0, edgeAnswers: 0, controlAnswers: 0 });

export class ConformanceLog {
  #pending: string[] = [];
  #mocks = 0;
  readonly #covered = new Set<string>();
  #counts = noCounts();

  /**
   * The observer for one mock. It tells the APIs apart by the base URLs the mock mounts them at;
   * `/__mock` is the control API, a development tool whose answers are checked against its own
   * document (decisions/024), outside the contracts' coverage.
   */
  observer(world: MockWorld, options: MockDispatcherOptions): (observation: MockServerObservation) => void {
    const dashboard = new URL(options.dashboardBaseUrl ?? `${world.origin}/v1`);
    const rebuild = new URL(options.rebuildBaseUrl ?? world.origin);
    const control = new URL(`${world.origin}/__mock`);
    this.#mocks++;
    return (observation) => {
      if (observation.kind === "callback") {
        this.#counts.callbacks++;
        this.#report(`callback to ${observation.delivery.url}`, this.#checkCallback(observation.delivery));
        return;
      }
      if (observation.edge) {
        this.#checkEdge(observation, dashboard, rebuild);
        return;
      }
      const { url } = observation.request;
      const dashboardPath = below(dashboard, url);
      const rebuildPath = below(rebuild, url);
      const controlPath = below(control, url);
      if (controlPath !== undefined) this.#checkControl(controlPath, observation);
      else if (dashboardPath !== undefined) this.#checkExchange("dashboard", dashboardPath, observation);
      else if (rebuildPath === REBUILD_SCOPE || rebuildPath?.startsWith(`${REBUILD_SCOPE}/`)) {
        this.#checkExchange("rebuild", rebuildPath, observation);
      }
    };
  }

  /** Violations since the last call, oldest first; each is handed out once. */
  takeViolations(): string[] {
    const taken = this.#pending;
    this.#pending = [];
    return taken;
  }

  /** What was seen since the last `clear`, or undefined when no mock was built since. */
  record(file: string): ConformanceRecord | undefined {
    if (this.#mocks === 0) return undefined;
    return { file, ...this.#counts, covered: [...this.#covered].sort() };
  }

  /** Forgets everything seen: the next test file starts from nothing. */
  clear(): void {
    this.#pending = [];
    this.#mocks = 0;
    this.#covered.clear();
    this.#counts = noCounts();
  }

  #checkExchange(api: ContractApi, path: string, { request, response, fault }: RequestObservation): void {
    this.#counts.requests++;
    const status = response.status;
    const headers = new Headers(response.headers);
    // Both adapters add this to every answer with a body; the dispatcher's answer does not carry it.
    if (response.body !== undefined) headers.set("content-type", "application/json");
    // What the client parses: the body as it crosses the wire, not the object the route returned.
    const body = response.body === undefined ? undefined : JSON.parse(JSON.stringify(response.body));
    const problems = contractViolations(api, { method: request.method, path, status, headers, body });
    if (fault === "error") {
      // An injected failure never reached the routes: the request's own validity does not matter.
      // It is a 503 (errorRate) or a status the operation documents (a scripted rule, which the
      // contract check above holds to its documented body).
      if (status < 400) problems.push(`an injected fault answered ${status}, not a failure`);
    } else {
      if (status >= 500) problems.push(`${status}: the mock failed (only injected faults may answer 5xx)`);
      const invalid = requestViolations(api, {
        method: request.method,
        path,
        query: request.url.searchParams,
        headers: request.headers,
        body: request.body,
      });
      if (invalid.length > 0) {
        this.#counts.invalidRequests++;
        if (status < 400 || status >= 500) {
          problems.push(`the request breaks the contract, yet was answered ${status}: ${invalid.join("; ")}`);
        }
      } else if (status === 400) {
        const unexplained = undocumentedRejections(api, body);
        if (unexplained.length > 0) {
          problems.push(
            "the request is valid by the contract, yet was answered 400 for a rule neither the schema nor " +
              `test/support/documented-rules.ts states: ${unexplained.join("; ")}`,
          );
        }
      }
    }
    const injected = fault === "none" ? "" : ` (injected ${fault})`;
    this.#report(
      `${request.method} ${request.url.pathname}${request.url.search} → ${status}${injected}`,
      problems,
      body,
    );
    // A reset answer never reaches the client, so it does not count as exercised.
    if (problems.length > 0 || fault === "reset") return;
    const operation = findOperation(api, request.method, path);
    const responses = operation?.operation.responses;
    const key = isObject(responses) ? documentedStatus(responses, status) : undefined;
    if (operation && key) this.#covered.add(responseKey(api, request.method, operation.template, key));
  }

  /** A control API answer: as openapi/mock-control.yaml documents it, and never a 5xx. */
  #checkControl(path: string, { request, response }: RequestObservation): void {
    this.#counts.controlAnswers++;
    const headers = new Headers(response.headers);
    // The adapters add JSON's type to a body; the console's page and stream bring their own.
    if (response.body !== undefined && !headers.has("content-type"))
      headers.set("content-type", "application/json");
    const body = response.body === undefined ? undefined : JSON.parse(JSON.stringify(response.body));
    const problems = contractViolations("mock-control", {
      method: request.method,
      path,
      status: response.status,
      headers,
      body,
    });
    if (response.status >= 500) problems.push(`${response.status}: the mock failed`);
    this.#report(
      `${request.method} ${request.url.pathname} → ${response.status} (control API)`,
      problems,
      body,
    );
  }

  /**
   * An answer of the server's edge: a refusal in the shared error envelope (the dashboard's
   * schemas, which hold every error code of contract-decisions), or a preflight that allows the
   * path's methods as the contract lists them and the headers both APIs read.
   */
  #checkEdge(observation: RequestObservation, dashboard: URL, rebuild: URL): void {
    this.#counts.edgeAnswers++;
    const { request, response } = observation;
    const rule = observation.edge ?? "host";
    const headers = new Headers(response.headers);
    const problems: string[] = [];
    const expect = (status: number, code?: string) => {
      if (response.status !== status)
        problems.push(`the edge's ${rule} answer is ${response.status}, not ${status}`);
      if (code === undefined) return;
      const body = JSON.parse(JSON.stringify(response.body ?? null));
      const schema = status === 400 ? "ValidationError" : "ErrorResponse";
      problems.push(...schemaErrors("dashboard", `/components/schemas/${schema}`, body));
      if (!isObject(body) || !isObject(body.error) || body.error.code !== code) {
        problems.push(`error.code is not ${code}`);
      }
    };
    if (rule === "preflight") {
      expect(204);
      if (response.body !== undefined) problems.push("a preflight answer has a body");
      const origin = request.headers.get("origin");
      if (headers.get("access-control-allow-origin") !== origin) {
        problems.push(`Access-Control-Allow-Origin is not the request's origin ${origin}`);
      }
      if (!/\borigin\b/i.test(headers.get("vary") ?? "")) problems.push("Vary does not name Origin");
      if (!/^\d+$/.test(headers.get("access-control-max-age") ?? ""))
        problems.push("Access-Control-Max-Age is missing");
      const allowedHeaders = (headers.get("access-control-allow-headers") ?? "")
        .toLowerCase()
        .split(/\s*,\s*/);
      for (const name of ["authorization", "content-type", "x-partner-id", "x-api-key"]) {
        if (!allowedHeaders.includes(name)) problems.push(`Access-Control-Allow-Headers lacks ${name}`);
      }
      const methods = (headers.get("access-control-allow-methods") ?? "")
        .split(/\s*,\s*/)
        .sort()
        .join(", ");
      for (const [api, base] of [
        ["dashboard", dashboard],
        ["rebuild", rebuild],
      ] as const) {
        const path = below(base, request.url);
        if (path === undefined || (api === "rebuild" && !path.startsWith(REBUILD_SCOPE))) continue;
        const template = findPathTemplate(contract(api).doc, path);
        const item =
          template === undefined ? undefined : (contract(api).doc.paths as Record<string, unknown>)[template];
        if (isObject(item) && methods !== allowedMethods(item).join(", ")) {
          problems.push(
            `Access-Control-Allow-Methods is ${methods}, the contract has ${allowedMethods(item).join(", ")}`,
          );
        }
        break;
      }
    } else if (rule === "request-target") {
      expect(400, "VALIDATION_FAILED");
    } else {
      expect(403, "FORBIDDEN");
    }
    this.#report(
      `${request.method} ${request.url.pathname} → ${response.status} (edge: ${rule})`,
      problems,
      response.body,
    );
    if (problems.length === 0) this.#covered.add(EDGE_RESPONSES[rule]);
  }

  #checkCallback(delivery: Extract<MockObservation, { kind: "callback" }>["delivery"]): string[] {
    const headers = new Headers(delivery.headers);
    const problems: string[] = [];
    if (!/^application\/json\b/i.test(headers.get("content-type") ?? "")) {
      problems.push(
        `Content-Type is ${JSON.stringify(headers.get("content-type"))}, application/json expected`,
      );
    }
    // The webhookApiKey security scheme: the partner's webhook API key in X-API-Key.
    if (!headers.get("x-api-key")) problems.push("X-API-Key (webhookApiKey) is missing");
    let body: unknown;
    try {
      body = JSON.parse(delivery.body);
    } catch {
      return [...problems, "the body is not JSON"];
    }
    problems.push(...callbackViolations(body));
    if (problems.length === 0 && isObject(body)) {
      const shape = callbackShapeKey(body);
      if (documentedCallbackShapes().includes(shape)) this.#covered.add(shape);
    }
    return problems;
  }

  #report(what: string, checked: string[], body?: unknown): void {
    // Every body checked for this observation was also run through rebuild-dashboard-kit/zod.
    const problems = [...checked, ...takeZodDisagreements()];
    if (problems.length === 0) return;
    const shown = JSON.stringify(body) ?? "(no body)";
    this.#pending.push(
      [
        `${what}:`,
        ...problems.map((problem) => `  - ${problem}`),
        ...(body === undefined
          ? []
          : [`  body: ${shown.length > MAX_SHOWN ? `${shown.slice(0, MAX_SHOWN)}…` : shown}`]),
      ].join("\n"),
    );
  }
}

/** The field errors of a `400` body that name no documented rule (all of them when it has none). */
function undocumentedRejections(api: ContractApi, body: unknown): string[] {
  const errors = isObject(body) && Array.isArray(body.errors) ? body.errors : [];
  if (errors.length === 0) return ["the answer names no field error"];
  return errors
    .filter((error) => !isObject(error) || documentedRuleOf(api, error) === undefined)
    .map((error) => JSON.stringify(error));
}

/** The path of `url` below `base`, or undefined when `url` is not under it. */
function below(base: URL, url: URL): string | undefined {
  const prefix = base.pathname.replace(/\/+$/, "");
  if (url.origin !== base.origin) return undefined;
  if (url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return undefined;
  return url.pathname.slice(prefix.length);
}

/** The log of the current test file's mocks, cleared when each file ends. */
export const suiteLog = new ConformanceLog();
registerSuiteLog(suiteLog);
onFileEnd(() => suiteLog.clear());
