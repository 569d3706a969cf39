import type { operations } from "../../src/generated/rebuild.js";
import type { AuthenticatedPartner, RateLimitState } from "../domain/rebuild/index.js";
import type { MockWorld } from "../world.js";
import { readJsonBody } from "./body.js";
import type { SuccessReply } from "./typed-reply.js";
import { challenged, FailureWithHeaders, type RouteDefinition } from "./types.js";

function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    "ratelimit-limit": String(state.limit),
    "ratelimit-remaining": String(state.remaining),
    "ratelimit-reset": String(state.resetSeconds),
  };
}

/** The rebuild API's 401 challenge: its own scheme, naming the two headers every request carries. */
const API_KEY_CHALLENGE = 'ApiKey realm="rebuild", headers="X-Partner-Id X-API-Key"';

/** The Partner site rebuild API, paths below its base (which has no version segment). */
export const rebuildRoutes: readonly RouteDefinition<MockWorld>[] = [
  {
    method: "POST",
    path: "/api/integration/partners/hostpanel/rebuilds",
    handle: ({ world, req }): SuccessReply<operations["submitRebuild"]> => {
      const domain = world.rebuild;
      let partner: AuthenticatedPartner;
      try {
        partner = domain.authenticate(req.headers.get("x-partner-id"), req.headers.get("x-api-key"));
      } catch (failure) {
        throw challenged(failure, { "www-authenticate": API_KEY_CHALLENGE });
      }
      domain.requireFeature(partner);
      // From here on every answer, failures included, carries the RateLimit-* headers.
      let state: RateLimitState;
      try {
        state = domain.admit(partner);
      } catch (failure) {
        throw new FailureWithHeaders(failure, rateLimitHeaders(domain.rateLimitState(partner)));
      }
      const headers = rateLimitHeaders(state);
      try {
        const { created, rebuild } = domain.submit(partner, readJsonBody(req));
        return created
          ? { status: 202, headers, body: { ...rebuild, status: "running" } }
          : { status: 200, headers, body: rebuild };
      } catch (failure) {
        throw new FailureWithHeaders(failure, headers);
      }
    },
  },
];
