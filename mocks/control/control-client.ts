import {
  type APIPromise,
  type CommonClientOptions,
  checkBaseUrl,
  createTransport,
  type RequestOptions,
  type Transport,
} from "../../src/core/index.js";
import type { paths } from "../../src/generated/mock-control.js";
import type {
  ControlInput,
  ControlOutput,
  ControlQuery,
  PartnerId,
  RequestId,
  RequestsQuery,
} from "./operations.js";
import { SNAPSHOT_MAX_BYTES } from "./snapshot-size.js";

export interface MockControlClientOptions extends CommonClientOptions {
  /**
   * The mock's origin (scheme, host and port), e.g. `http://127.0.0.1:4010` or `startMockServer`'s
   * `origin`; the control API is below it, at `/__mock`. A path, user info, a query or a fragment is
   * a TypeError.
   */
  readonly baseUrl: string;
}

/**
 * The mock's control API (`/__mock`, openapi/mock-control.yaml) over HTTP, for a mock in another
 * process (`npm start`, `startMockServer`, a browser worker): one method per operation, named and typed
 * as a world's own (`MockControl`; the same input and output type per operation, decisions/031), each
 * taking the SDK's per-call options last. It is built on the SDK's request pipeline: timeouts,
 * retries of what is safe to repeat, redacted logging, and the SDK's typed errors (`ValidationError`
 * with `fieldErrors` for a 400, `NotFoundError` for an unknown partner or rebuild, `ApiError` with
 * `status` 409 and `code` `CONFLICT` for a rebuild in the wrong state, `PermissionDeniedError` for a
 * standalone server's refusal of a host or origin it does not allow). Needs no msw.
 *
 * ```ts
 * const control = new MockControlClient({ baseUrl: "http://127.0.0.1:4010" });
 * await control.advanceClock({ seconds: 5 });
 * const { entries } = await control.listRequests({ operation: "submitRebuild" });
 * ```
 */
export class MockControlClient {
  readonly #t: Transport<paths>;
  // Each method keeps the call in `answer` before returning it: the data type openapi-fetch gives the
  // path is then checked against the operation's declared output (returned directly, the declared
  // type would be inferred into the call instead of checked).

  /**
   * Throws a TypeError naming the option (never its value) when `baseUrl` is not an http(s) origin or
   * a numeric option is out of range.
   */
  constructor(options: MockControlClientOptions) {
    const origin = checkBaseUrl("MockControlClient", options.baseUrl);
    if (new URL(origin).pathname !== "/") {
      throw new TypeError(
        "MockControlClient: baseUrl must be the mock's origin (scheme, host and port), without a path: the control API is below it at /__mock",
      );
    }
    this.#t = createTransport<paths>({
      // Snapshots and states of big worlds are larger than the SDK's 4 MiB default.
      maxResponseBytes: SNAPSHOT_MAX_BYTES,
      ...options,
      client: "MockControlClient",
      baseUrl: `${origin}/__mock`,
      authHeaders: {},
      secrets: [],
    });
  }

  /** `resetMock`: back to the seed; deliveries, the sink, the request journal and faults cleared, the clock offset back to 0. */
  reset(opts?: RequestOptions): APIPromise<ControlOutput<"resetMock">> {
    const answer = this.#t("safe", opts, (http, init) => http.POST("/reset", init), none);
    return answer;
  }

  /** `getMockState`: everything as JSON for looking at; holds no secret and no hash. */
  state(opts?: RequestOptions): APIPromise<ControlOutput<"getMockState">> {
    const answer = this.#t("safe", opts, (http, init) => http.GET("/state", init));
    return answer;
  }

  /** `getMockSnapshot`: everything needed to carry on later (what `--state-file` keeps). */
  snapshot(opts?: RequestOptions): APIPromise<ControlOutput<"getMockSnapshot">> {
    const answer = this.#t("safe", opts, (http, init) => http.GET("/snapshot", init));
    return answer;
  }

  /**
   * `restoreMockSnapshot`: replaces the whole state with a snapshot, pending work included; a bad
   * value is a `ValidationError` naming it, and then nothing changed.
   */
  restore(
    snapshot: ControlInput<"restoreMockSnapshot">,
    opts?: RequestOptions,
  ): APIPromise<ControlOutput<"restoreMockSnapshot">> {
    const answer = this.#t(
      "safe",
      opts,
      (http, init) => http.PUT("/snapshot", { ...init, body: snapshot }),
      none,
    );
    return answer;
  }

  /**
   * `advanceClock`: moves the virtual clock; resolves once the work it made due has run, callback
   * deliveries included. Never retried (a repeat would move the clock twice).
   */
  advanceClock(
    body: ControlInput<"advanceClock">,
    opts?: RequestOptions,
  ): APIPromise<ControlOutput<"advanceClock">> {
    const answer = this.#t("unsafe", opts, (http, init) => http.POST("/clock/advance", { ...init, body }));
    return answer;
  }

  /** `upsertPartner`: creates or changes a partner's console settings; resolves them in full. */
  upsertPartner(
    partnerId: PartnerId,
    settings?: ControlInput<"upsertPartner">,
    opts?: RequestOptions,
  ): APIPromise<ControlOutput<"upsertPartner">> {
    const answer = this.#t("safe", opts, (http, init) =>
      http.PUT("/partners/{partnerId}", {
        ...init,
        params: { path: { partnerId } },
        ...(settings === undefined ? {} : { body: settings }),
      }),
    );
    return answer;
  }

  /** `rotatePartnerKey`: a new rebuild key; the old one stops working at once. Never retried. */
  rotatePartnerKey(
    partnerId: PartnerId,
    opts?: RequestOptions,
  ): APIPromise<ControlOutput<"rotatePartnerKey">> {
    const answer = this.#t("unsafe", opts, (http, init) =>
      http.POST("/partners/{partnerId}/rotate-key", { ...init, params: { path: { partnerId } } }),
    );
    return answer;
  }

  /**
   * `completeRebuild`: ends a running rebuild now (`success` without an outcome); resolves once its
   * first callback attempt is recorded. A rebuild that is not running is an `ApiError` 409.
   */
  completeRebuild(
    requestId: RequestId,
    outcome?: ControlInput<"completeRebuild">,
    opts?: RequestOptions,
  ): APIPromise<ControlOutput<"completeRebuild">> {
    const answer = this.#t("unsafe", opts, (http, init) =>
      http.POST("/rebuilds/{requestId}/complete", {
        ...init,
        params: { path: { requestId } },
        ...(outcome === undefined ? {} : { body: outcome }),
      }),
    );
    return answer;
  }

  /** `cloneRebuild`: "Clone to user", a new copy of a `success` rebuild's project (else `ApiError` 409). */
  cloneRebuild(
    requestId: RequestId,
    body: ControlInput<"cloneRebuild">,
    opts?: RequestOptions,
  ): APIPromise<ControlOutput<"cloneRebuild">> {
    const answer = this.#t("unsafe", opts, (http, init) =>
      http.POST("/rebuilds/{requestId}/clone", { ...init, params: { path: { requestId } }, body }),
    );
    return answer;
  }

  /** `openMagicLink`: a customer opens a magic link; assigned or not, and the customer's brand. */
  openMagicLink(
    body: ControlInput<"openMagicLink">,
    opts?: RequestOptions,
  ): APIPromise<ControlOutput<"openMagicLink">> {
    const answer = this.#t("unsafe", opts, (http, init) => http.POST("/magic-links/open", { ...init, body }));
    return answer;
  }

  /** `listDeliveries`: every callback attempt kept, in the order they ended. */
  listDeliveries(opts?: RequestOptions): APIPromise<ControlOutput<"listDeliveries">> {
    const answer = this.#t("safe", opts, (http, init) => http.GET("/deliveries", init));
    return answer;
  }

  /** `listSinkEntries`: what the partner's built-in webhook receiver recorded, oldest first. */
  listSinkEntries(partnerId: PartnerId, opts?: RequestOptions): APIPromise<ControlOutput<"listSinkEntries">> {
    const answer = this.#t("safe", opts, (http, init) =>
      http.GET("/webhook-sink/{partnerId}", { ...init, params: { path: { partnerId } } }),
    );
    return answer;
  }

  /** `getFaults`: the failures injected into the public APIs. */
  getFaults(opts?: RequestOptions): APIPromise<ControlOutput<"getFaults">> {
    const answer = this.#t("safe", opts, (http, init) => http.GET("/faults", init));
    return answer;
  }

  /** `setFaults`: changes the failures injected into the public APIs; resolves the settings now. */
  setFaults(body: ControlInput<"setFaults">, opts?: RequestOptions): APIPromise<ControlOutput<"setFaults">> {
    const answer = this.#t("safe", opts, (http, init) => http.PUT("/faults", { ...init, body }));
    return answer;
  }

  /**
   * `listRequests`: the request journal, the most recent requests to the public APIs (newest last),
   * only those of `query.operation` and `query.status`, and those whose body contains `query.body`
   * (a JSON value, or its JSON text), when given.
   */
  listRequests(query?: RequestsQuery, opts?: RequestOptions): APIPromise<ControlOutput<"listRequests">> {
    const answer = this.#t("safe", opts, (http, init) =>
      http.GET("/requests", { ...init, params: query === undefined ? {} : { query: asQuery(query) } }),
    );
    return answer;
  }
}

/** `query` as the URL carries it: a body pattern as JSON text. */
function asQuery({ body, ...rest }: RequestsQuery): ControlQuery<"listRequests"> {
  return body === undefined
    ? rest
    : { ...rest, body: typeof body === "string" ? body : JSON.stringify(body) };
}

/** A 204's data: nothing. */
const none = (): undefined => undefined;
