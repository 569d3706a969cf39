import {
  type APIPromise,
  type CommonClientOptions,
  createTransport,
  type RequestOptions,
  type Transport,
} from "../core/index.js";
import type { paths } from "../generated/rebuild.js";
import type { RebuildRequest, SubmittedRebuild } from "./types.js";

export interface RebuildClientOptions extends CommonClientOptions {
  /** The API's base URL, without a version segment, e.g. `https://rebuild.example.com`. */
  readonly baseUrl: string;
  /** The partner id, sent as `X-Partner-Id`. */
  readonly partnerId: number;
  /**
   * The rebuild API key (not the webhook API key), sent as `X-API-Key`, never in a URL, and
   * redacted from logs and errors.
   */
  readonly apiKey: string;
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
   * Throws a TypeError when `baseUrl` is not an http(s) URL, `partnerId` not a positive integer,
   * `apiKey` empty or a numeric option out of range.
   */
  constructor(options: RebuildClientOptions) {
    const { partnerId, apiKey } = options;
    if (!Number.isSafeInteger(partnerId) || partnerId < 1) {
      throw new TypeError("RebuildClient: partnerId must be a positive integer");
    }
    if (typeof apiKey !== "string" || !apiKey) {
      throw new TypeError("RebuildClient: apiKey must be a non-empty string");
    }
    this.#t = createTransport<paths>({
      ...options,
      client: "RebuildClient",
      authHeaders: { "X-Partner-Id": String(partnerId), "X-API-Key": apiKey },
      secrets: [apiKey],
    });
  }

  /**
   * Submits a site for rebuilding. The service deduplicates per `sourceUrl`, so the call is retried
   * like a read: a new URL resolves with `created: true` and status `running`; a URL submitted
   * before resolves to that rebuild as it is now (`created: false`), even when it `failed` — submit
   * another URL for the same site to try again. The outcome arrives by webhook.
   */
  submit(request: RebuildRequest, opts?: RequestOptions): APIPromise<SubmittedRebuild> {
    return this.#t.call(
      "safe",
      opts,
      (c) => c.POST("/api/integration/partners/hostpanel/rebuilds", { body: request }),
      (rebuild, response) => ({ ...rebuild, created: response.status === 202 }),
    );
  }
}
