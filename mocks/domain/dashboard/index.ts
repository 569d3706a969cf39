export { formatTimestamp } from "../timestamp.js";
export { CLAIM_NAMES } from "./claims.js";
export {
  createDashboardDomain,
  type DashboardDomain,
  type DashboardDomainOptions,
} from "./dashboard-domain.js";
export { INVITATION_LIMITS } from "./invitation-input.js";
export { PAGE_LIMITS, type QueryParams } from "./query.js";
export {
  type DashboardSeed,
  type DashboardSeedClaim,
  type DashboardSeedServer,
  type DashboardSeedTeam,
  type DashboardSeedToken,
  type DashboardSeedUser,
  defaultDashboardSeed,
} from "./seed.js";
export { SERVER_LIMITS } from "./server-input.js";
export { type DashboardSnapshot, readDashboardSnapshot } from "./snapshot.js";
export { INVITATION_LOG_LIMIT } from "./team-directory.js";
export { TOKEN_LIMITS } from "./token-input.js";
export type * from "./types.js";
export type { DashboardState } from "./views.js";
