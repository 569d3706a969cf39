// Which domain operations may change the state, so that the world can announce a change after every
// one (`world.onChange`: the console's live updates, the state file). Each table names every
// operation of its domain: a new operation that is not classified fails to compile.
import type { DashboardDomain } from "./dashboard/index.js";
import type { RebuildDomain } from "./rebuild/index.js";

type Effect = "reads" | "changes";

/** One entry per operation of `Domain`. */
type Effects<Domain> = { readonly [Name in keyof Domain]: Effect };

const DASHBOARD_EFFECTS: Effects<DashboardDomain> = {
  authenticate: "changes", // stamps the token's lastUsedAt
  authorize: "reads",
  listServers: "reads",
  connectServers: "changes",
  deleteServer: "changes",
  listApiTokens: "reads",
  createApiToken: "changes",
  getApiToken: "reads",
  deleteApiToken: "changes",
  sendInvitations: "changes",
  getTeamGuid: "reads",
  state: "reads",
  snapshot: "reads",
  check: "reads",
  reset: "changes",
  restore: "changes",
};

const REBUILD_EFFECTS: Effects<RebuildDomain> = {
  authenticate: "reads",
  requireFeature: "reads",
  admit: "changes", // counts the request in the partner's hour
  rateLimitState: "reads",
  submit: "changes",
  openMagicLink: "changes",
  clone: "changes",
  complete: "changes",
  upsertPartner: "changes",
  rotateKey: "changes",
  sinkReceive: "changes",
  sinkList: "reads",
  rebuilds: "reads",
  deliveries: "reads",
  state: "reads",
  snapshot: "reads",
  check: "reads",
  restore: "changes",
  reset: "changes",
};

/**
 * The domain with every operation that may change the state calling `changed` once it returned
 * (for one that returns a promise, also once that settled: a completion changes the rebuild at once
 * and records its callback attempt later). An operation that throws changed nothing: the domains
 * check before they change.
 */
function announcing<Domain extends object>(
  domain: Domain,
  effects: Effects<Domain>,
  changed: () => void,
): Domain {
  const wrapped = { ...domain };
  for (const name of Object.keys(effects) as Array<keyof Domain & string>) {
    const operation = domain[name];
    if (effects[name] !== "changes" || typeof operation !== "function") continue;
    const call = (...args: unknown[]) => {
      const result: unknown = operation(...args);
      changed();
      if (result instanceof Promise) void result.then(changed, changed);
      return result;
    };
    Object.assign(wrapped, { [name]: call });
  }
  return wrapped;
}

export const announcingDashboard = (domain: DashboardDomain, changed: () => void) =>
  announcing(domain, DASHBOARD_EFFECTS, changed);

export const announcingRebuild = (domain: RebuildDomain, changed: () => void) =>
  announcing(domain, REBUILD_EFFECTS, changed);
