/**
 * zod 4 schemas generated from the contract (decisions/041), one per component schema of each
 * document (`dashboard.zServer`, `rebuild.zRebuildRequest`, …), per operation's request and response
 * (`dashboard.zCreateApiTokenBody`, `rebuild.zSubmitRebuildResponse`) and per webhook. zod is an
 * optional peer dependency: only this entry point imports it.
 * @module rebuild-dashboard-kit/zod
 */
export * as dashboard from "../generated/dashboard-zod.js";
export * as rebuild from "../generated/rebuild-zod.js";
