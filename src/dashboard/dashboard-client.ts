import { type CommonClientOptions, createTransport } from "../core/index.js";
import type { paths } from "../generated/dashboard.js";
import { AccountsResource } from "./accounts.js";
import { ApiTokensResource } from "./api-tokens.js";
import { ServersResource } from "./servers.js";

export interface DashboardClientOptions extends CommonClientOptions {
  /** The API's base URL, ending in `/v1`, e.g. `https://dashboard.example.com/v1`. */
  readonly baseUrl: string;
  /** The API token, sent as `Authorization: Bearer <token>` and redacted from logs and errors. */
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
  readonly servers: ServersResource;
  readonly apiTokens: ApiTokensResource;
  readonly accounts: AccountsResource;

  /**
   * Throws a TypeError when `baseUrl` is not an http(s) URL, `token` is empty or a numeric option is
   * out of range.
   */
  constructor(options: DashboardClientOptions) {
    const { token } = options;
    if (typeof token !== "string" || !token) {
      throw new TypeError("DashboardClient: token must be a non-empty string");
    }
    // The only owner of the transport (and so of the token) is each resource's #private field.
    const transport = createTransport<paths>({
      ...options,
      client: "DashboardClient",
      authHeaders: { Authorization: `Bearer ${token}` },
      secrets: [token],
    });
    this.servers = new ServersResource(transport);
    this.apiTokens = new ApiTokensResource(transport);
    this.accounts = new AccountsResource(transport);
  }
}
