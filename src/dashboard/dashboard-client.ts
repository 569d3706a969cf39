import type { Client } from "openapi-fetch";
import { type CommonClientOptions, checkCredential, createTransport } from "../core/index.js";
import type { paths } from "../generated/dashboard.js";
import { responseShapes } from "../generated/dashboard-responses.js";
import { AccountsResource } from "./accounts.js";
import { ApiTokensResource, tokenNotes } from "./api-tokens.js";
import { ServersResource } from "./servers.js";

export interface DashboardClientOptions extends CommonClientOptions {
  /** The API's base URL, ending in `/v1`, e.g. `https://dashboard.example.com/v1`. */
  readonly baseUrl: string;
  /**
   * The API token, sent as `Authorization: Bearer <token>` and redacted from logs and errors. It must
   * be given exactly (no surrounding whitespace, e.g. a newline read from a file).
   */
  readonly token: string;
}

/**
 * The Dashboard management API. Every method's last argument is optional `RequestOptions`; every
 * method but `listAll` returns an `APIPromise` (`await` it for the data, or `.withResponse()`).
 *
 * ```ts
 * const dashboard = new DashboardClient({ baseUrl: "https://dashboard.example.com/v1", token });
 * const { totalCount, data } = await dashboard.servers.list({ pageSize: 50 });
 * ```
 */
export class DashboardClient {
  // `declare`: assigned in the constructor, so no class-field definitions are emitted.
  declare readonly servers: ServersResource;
  // Private, like the transport: the client's enumerable properties are its resources.
  readonly #http: Client<paths>;
  declare readonly apiTokens: ApiTokensResource;
  declare readonly accounts: AccountsResource;
  /**
   * The openapi-fetch client every call goes through, with this client's credentials, timeout,
   * retries, response checks and logging: `await dashboard.http.GET("/si/servers", { params: { query:
   * { pageSize: 5 } } })` resolves to `{ data, error, response }` (an error status is a value there;
   * no answer, a timeout or a body that is not what the contract documents rejects, with the SDK's
   * errors). `dashboard.http.use(middleware)` also sees the resource methods' calls. Its own calls
   * retry GET, PUT and DELETE like reads, POST only when it never left (docs/guides/sdk.md).
   */
  get http(): Client<paths> {
    return this.#http;
  }

  /**
   * Throws a TypeError naming the option (never its value) when `baseUrl` is not an http(s) URL or
   * holds user info, `token` is empty, has surrounding whitespace or cannot be sent in a header, or
   * a numeric option is out of range.
   */
  constructor(options: DashboardClientOptions) {
    const token = checkCredential("DashboardClient", "token", options.token);
    // The only owner of the transport (and so of the token) is each resource's #private field.
    const transport = createTransport<paths>({
      ...options,
      client: "DashboardClient",
      authHeaders: { Authorization: `Bearer ${token}` },
      secrets: [token],
      responses: responseShapes,
      invalidNotes: tokenNotes,
    });
    this.#http = transport.http;
    this.servers = new ServersResource(transport);
    this.apiTokens = new ApiTokensResource(transport);
    this.accounts = new AccountsResource(transport);
  }
}
