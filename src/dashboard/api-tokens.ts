import { type APIPromise, paginate, type RequestOptions, type Transport } from "../core/index.js";
import type { paths } from "../generated/dashboard.js";
import type {
  ApiToken,
  ApiTokenId,
  ApiTokenList,
  CreateApiTokenRequest,
  CreatedApiToken,
  ListAllApiTokensQuery,
  ListApiTokensQuery,
} from "./types.js";

/** `dashboard.apiTokens`: the calling user's API tokens (needs `manage-api-tokens` or no claims). */
export class ApiTokensResource {
  readonly #t: Transport<paths>;

  /** @internal Built by DashboardClient. */
  constructor(transport: Transport<paths>) {
    this.#t = transport;
  }

  /** One page of tokens by ascending `id`, optionally filtered by name. */
  list(query: ListApiTokensQuery = {}, opts?: RequestOptions): APIPromise<ApiTokenList> {
    return this.#t.call("safe", opts, (c) => c.GET("/dashboard/api-tokens", { params: { query } }));
  }

  /** Every token matching `filter`, fetching pages of `pageSize` (default 100) as the loop goes. */
  listAll(query: ListAllApiTokensQuery = {}, opts?: RequestOptions): AsyncIterable<ApiToken> {
    return paginate((page, pageSize, o) => this.list({ ...query, page, pageSize }, o), query.pageSize, opts);
  }

  /**
   * Creates a token. The result is the only place its secret `token` ever appears: store it now.
   * Not retried, since a retry after a lost answer would create a second token.
   */
  create(request: CreateApiTokenRequest, opts?: RequestOptions): APIPromise<CreatedApiToken> {
    return this.#t.call(
      "unsafe",
      opts,
      (c) => c.POST("/dashboard/api-tokens", { body: request }),
      (body) => body.data,
    );
  }

  /** One token, without its secret; another user's or an unknown id rejects with NotFoundError. */
  get(id: ApiTokenId, opts?: RequestOptions): APIPromise<ApiToken> {
    return this.#t.call(
      "safe",
      opts,
      (c) => c.GET("/dashboard/api-tokens/{id}", { params: { path: { id } } }),
      (body) => body.data,
    );
  }

  /**
   * Deletes a token; it stops working at once (a token may delete itself). Retried like a read; a
   * retry that finds the token gone resolves, as an earlier attempt whose answer was lost may have
   * deleted it.
   */
  delete(id: ApiTokenId, opts?: RequestOptions): APIPromise<void> {
    return this.#t.call("delete", opts, (c) =>
      c.DELETE("/dashboard/api-tokens/{id}", { params: { path: { id } } }),
    );
  }
}
