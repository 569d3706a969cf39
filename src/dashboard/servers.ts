import { type APIPromise, paginate, type RequestOptions, type Transport } from "../core/index.js";
import type { paths } from "../generated/dashboard.js";
import type { ListAllServersQuery, ListServersQuery, Server, ServerList, ServerToConnect } from "./types.js";

/** `dashboard.servers`: the server inventory of the caller's team (an unrestricted token only). */
export class ServersResource {
  readonly #t: Transport<paths>;

  /** @internal Built by DashboardClient. */
  constructor(transport: Transport<paths>) {
    this.#t = transport;
  }

  /** One page of servers, in the order they were connected. */
  list(query: ListServersQuery = {}, opts?: RequestOptions): APIPromise<ServerList> {
    return this.#t("safe", opts, (http, init) => http.GET("/si/servers", { ...init, params: { query } }));
  }

  /**
   * Every server, fetching pages of `pageSize` (default 100) as the loop goes. Not a snapshot:
   * deleting servers during the loop makes it skip others that existed throughout; to delete many,
   * collect them first, or list again until nothing is left (README, "listAll").
   */
  listAll(query: ListAllServersQuery = {}, opts?: RequestOptions): AsyncIterable<Server> {
    return paginate(
      (page, pageSize, o) => this.list({ page, pageSize }, o),
      (server) => server.guid,
      query.pageSize,
      opts,
    );
  }

  /** Connects 1 to 100 servers; resolves to the new servers, in request order. Not retried. */
  connect(servers: ServerToConnect[], opts?: RequestOptions): APIPromise<Server[]> {
    return this.#t(
      "unsafe",
      opts,
      (http, init) => http.POST("/si/servers", { ...init, body: { servers } }),
      (body) => body.data,
    );
  }

  /**
   * Removes a server by GUID; an unknown one rejects with NotFoundError. Retried like a read; a
   * retry that finds the server gone resolves, as an earlier attempt whose answer was lost may have
   * removed it.
   */
  delete(guid: string, opts?: RequestOptions): APIPromise<void> {
    return this.#t("delete", opts, (http, init) =>
      http.DELETE("/si/servers/{guid}", { ...init, params: { path: { guid: segment(guid) } } }),
    );
  }
}

// openapi-fetch percent-encodes a path value but leaves "." and "..", which URL parsing would then
// resolve against the path: DELETE /si/servers/.. would address another resource than a server.
function segment(guid: string): string {
  if (/^\.{0,2}$/.test(guid)) throw new TypeError("guid must be a GUID");
  return guid;
}
