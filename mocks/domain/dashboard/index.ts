export {
  createDashboardDomain,
  type DashboardDomain,
} from "./dashboard-domain.js";
export { type DashboardSeed, type DashboardSeedToken, defaultDashboardSeed } from "./seed.js";
export type { DashboardStores } from "./snapshot.js";
export type * from "./types.js";
