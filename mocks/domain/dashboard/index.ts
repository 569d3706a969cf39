export {
  createDashboardDomain,
  type DashboardDomain,
} from "./dashboard-domain.js";
export { type DashboardSeed, type DashboardSeedToken, defaultDashboardSeed } from "./seed.js";
export type { DashboardSnapshot } from "./snapshot.js";
export { INVITATION_LOG_LIMIT } from "./team-directory.js";
export type * from "./types.js";
export type { DashboardState } from "./views.js";
