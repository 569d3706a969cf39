import type { Client } from "openapi-fetch";
import {
  APIPromise,
  type CommonClientOptions,
  checkCredential,
  createTransport,
  type RateLimitBudget,
  RateLimitError,
  type RequestOptions,
  readBudget,
  type Transport,
} from "../core/index.js";
import { REBUILD_API_KEY_HEADER, REBUILD_PARTNER_ID_HEADER } from "../generated/headers.js";
import type { paths } from "../generated/rebuild.js";
import { responseShapes } from "../generated/rebuild-responses.js";
import type { RebuildRequest, SubmittedRebuild } from "./types.js";

const SUBMIT_PATH = "/api/integration/partners/hostpanel/rebuilds";

export interface RebuildClientOptions extends CommonClientOptions {
  /** The API's base URL, without a version segment, e.g. `https://rebuild.example.com`. */
  readonly baseUrl: string;
  /** The partner id, sent as `X-Partner-Id`. */
  readonly partnerId: number;
  /**
   * The rebuild API key (not the webhook API key), sent as `X-API-Key`, never in a URL, and
   * redacted from logs and errors. It must be given exactly (no surrounding whitespace).
   */
  readonly apiKey: string;
  /**
   * When true, `submit` rejects at once with a `RateLimitError`, without sending, while the last
   * known budget (`rateLimit`) has nothing remaining and its reset is still ahead. Default false:
   * the request is sent and the server answers.
   */
  readonly failFastOnRateLimit?: boolean;
}

/**
 * The Partner site rebuild API.
 *
 * ```ts
 * const rebuild = new RebuildClient({ baseUrl: "https://rebuild.example.com", partnerId: 1001, apiKey });
 * const { created, requestId, projectId } = await rebuild.submit({ sourceUrl: "https://www.example.com/" });
 * ```
 */
export class RebuildClient {
  readonly #t: Transport<paths>;
  /**
   * The openapi-fetch client every call goes through, with this client's credentials, timeout,
   * retries, response checks and logging (as `DashboardClient#http`): `await rebuild.http.POST(path,
   * { body })` resolves to `{ data, error, response }`; its POST is retried only when it never left,
   * while `submit` knows the service deduplicates and retries it like a read.
   */
  get http(): Client<paths> {
    return this.#t.http;
  }
  #budget: RateLimitBudget | undefined;
  readonly #failFast: boolean;

  /**
   * Throws a TypeError naming the option (never its value) when `baseUrl` is not an http(s) URL or
   * holds user info, `partnerId` is not a positive integer, `apiKey` is empty, has surrounding
   * whitespace or cannot be sent in a header, or a numeric option is out of range.
   */
  constructor(options: RebuildClientOptions) {
    const { partnerId } = options;
    if (!Number.isSafeInteger(partnerId) || partnerId < 1) {
      throw new TypeError("RebuildClient: partnerId must be a positive integer");
    }
    const apiKey = checkCredential("RebuildClient", "apiKey", options.apiKey);
    this.#t = createTransport<paths>({
      ...options,
      client: "RebuildClient",
      authHeaders: { [REBUILD_PARTNER_ID_HEADER]: String(partnerId), [REBUILD_API_KEY_HEADER]: apiKey },
      secrets: [apiKey],
      responses: responseShapes,
      onResponse: (headers, now) => {
        this.#budget = readBudget(headers, now) ?? this.#budget;
      },
    });
    this.#failFast = options.failFastOnRateLimit === true;
  }

  /**
   * The rate-limit budget the last response announced (its `RateLimit-Limit`, `-Remaining` and
   * `-Reset` headers, from a success or an error alike); undefined before any response carried them.
   */
  get rateLimit(): RateLimitBudget | undefined {
    return this.#budget;
  }

  /**
   * Submits a site for rebuilding. The service deduplicates per `sourceUrl`, so the call is retried
   * like a read: a new URL resolves with `created: true` and status `running`; a URL submitted
   * before resolves to that rebuild as it is now (`created: false`), even when it `failed` — submit
   * another URL for the same site to try again. The outcome arrives by webhook.
   */
  submit(request: RebuildRequest, opts?: RequestOptions): APIPromise<SubmittedRebuild> {
    const { remaining, resetAt = new Date(0) } = this.#budget ?? {};
    const retryAfterMs = +resetAt - Date.now();
    if (this.#failFast && remaining === 0 && retryAfterMs > 0) {
      return new APIPromise(
        Promise.reject(
          new RateLimitError(
            `POST ${SUBMIT_PATH} not sent: no rate limit left until ${resetAt.toISOString()}`,
            {
              status: 429,
              code: "RATE_LIMIT_EXCEEDED",
              retryAfterMs,
              resetAt,
            },
          ),
        ),
      );
    }
    return this.#t(
      "safe",
      opts,
      (http, init) => http.POST(SUBMIT_PATH, { ...init, body: request }),
      (rebuild, response) => ({ ...rebuild, created: response.status === 202 }),
    );
  }
}
