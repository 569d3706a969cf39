import type { APIPromise, RequestOptions, Transport } from "../core/index.js";
import type { paths } from "../generated/dashboard.js";
import type { Invitation } from "./types.js";

/** `dashboard.accounts`: team invitations and team lookup (an unrestricted token only). */
export class AccountsResource {
  readonly #t: Transport<paths>;

  /** @internal Built by DashboardClient. */
  constructor(transport: Transport<paths>) {
    this.#t = transport;
  }

  /** Invites 1 to 50 addresses to the caller's team; one result per address, in order. Not retried. */
  sendInvitations(emails: string[], opts?: RequestOptions): APIPromise<Invitation[]> {
    return this.#t(
      "unsafe",
      opts,
      (http, init) => http.POST("/accounts/invitations", { ...init, body: { emails } }),
      (body) => body.data,
    );
  }

  /** The GUID of the team a user's or invited address belongs to; unknown ones reject with NotFoundError. */
  getTeamGuid(email: string, opts?: RequestOptions): APIPromise<string> {
    return this.#t(
      "safe",
      opts,
      (http, init) => http.GET("/accounts/team-guid", { ...init, params: { query: { email } } }),
      (body) => body.data.teamGuid,
    );
  }
}
