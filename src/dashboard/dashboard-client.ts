import { type CommonClientOptions, checkCredential, createTransport } from "../core/index.js";
import type { paths } from "../generated/dashboard.js";
import { responseShapes } from "../generated/dashboard-responses.js";
import { AccountsResource } from "./accounts.js";
import { ApiTokensResource } from "./api-tokens.js";
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
  declare readonly apiTokens: ApiTokensResource;
  declare readonly accounts: AccountsResource;

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
    });
    this.servers = new ServersResource(transport);
    this.apiTokens = new ApiTokensResource(transport);
    this.accounts = new AccountsResource(transport);
  }
}
