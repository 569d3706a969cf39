import {
  type APIPromise,
  type InvalidResponseNote,
  paginate,
  type RequestOptions,
  type Transport,
} from "../core/index.js";
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
    return this.#t("safe", opts, (http, init) =>
      http.GET("/dashboard/api-tokens", { ...init, params: { query } }),
    );
  }

  /**
   * Every token matching `filter`, fetching pages of `pageSize` (default 100) as the loop goes. Not
   * a snapshot: deleting tokens during the loop makes it skip others that existed throughout; to
   * delete many, collect them first, or list again until nothing is left (README, "listAll").
   */
  listAll(query: ListAllApiTokensQuery = {}, opts?: RequestOptions): AsyncIterable<ApiToken> {
    return paginate(
      (page, pageSize, o) => this.list({ ...query, page, pageSize }, o),
      (token) => token.id,
      query.pageSize,
      opts,
    );
  }

  /**
   * Creates a token. The result is the only place its secret `token` ever appears: store it now.
   * Not retried, since a retry after a lost answer would create a second token. A 201 whose body is
   * not a created token rejects with a `ResponseValidationError` that says so and carries the
   * `tokenId` when the body held one, so the token can be deleted.
   */
  create(request: CreateApiTokenRequest, opts?: RequestOptions): APIPromise<CreatedApiToken> {
    return this.#t(
      "unsafe",
      opts,
      (http, init) => http.POST("/dashboard/api-tokens", { ...init, body: request }),
      (body) => body.data,
    );
  }

  /** One token, without its secret; another user's or an unknown id rejects with NotFoundError. */
  get(id: ApiTokenId, opts?: RequestOptions): APIPromise<ApiToken> {
    return this.#t(
      "safe",
      opts,
      (http, init) => http.GET("/dashboard/api-tokens/{id}", { ...init, params: { path: { id } } }),
      (body) => body.data,
    );
  }

  /**
   * Deletes a token; it stops working at once (a token may delete itself). Retried like a read; a
   * retry that finds the token gone resolves, as an earlier attempt whose answer was lost may have
   * deleted it.
   */
  delete(id: ApiTokenId, opts?: RequestOptions): APIPromise<void> {
    return this.#t("delete", opts, (http, init) =>
      http.DELETE("/dashboard/api-tokens/{id}", { ...init, params: { path: { id } } }),
    );
  }
}

/**
 * What a 201 to `create` (or to `.http`'s POST of the same path) whose body is not a created token
 * means: a token probably exists, and its secret, shown only once, is lost.
 */
export const tokenNotes: Partial<Record<`POST ${keyof paths}`, InvalidResponseNote>> = {
  "POST /dashboard/api-tokens": (body) => {
    const id = (body as { data?: { id?: unknown } } | undefined)?.data?.id;
    return {
      note: "A token may have been created and its secret lost: delete it (tokenId) and create another",
      tokenId: Number.isSafeInteger(id) ? (id as number) : undefined,
    };
  },
};
