import type { operations } from "../../src/generated/rebuild.js";
import {
  credentialHeaders,
  rateLimitHeaders,
  operations as registry,
} from "../../src/generated/rebuild-operations.js";
import {
  type OperationInputs,
  routes,
  operations as validators,
} from "../../src/generated/rebuild-validators.js";
import type { AuthenticatedPartner, RateLimitState } from "../domain/rebuild/index.js";
import type { WorldCore } from "../world.js";
import { type ApiGuard, mountOperations } from "./operation-routes.js";
import { challenged, FailureWithHeaders, type MockResponse } from "./types.js";

interface RebuildContext {
  partner: AuthenticatedPartner;
}

/** The rate window's numbers under the headers the contract names for each (`x-rate-limit`). */
function windowHeaders(state: RateLimitState): Record<string, string> {
  return {
    [rateLimitHeaders.limit]: String(state.limit),
    [rateLimitHeaders.remaining]: String(state.remaining),
    [rateLimitHeaders.reset]: String(state.resetSeconds),
  };
}

/**
 * Authentication (401), the feature flag (403) and the rate limit (429) come before anything else;
 * from the rate limit on, every answer, failures included, carries the RateLimit-* headers.
 */
const guard: ApiGuard<WorldCore, RebuildContext, keyof typeof registry> = (
  { world, req, operationId, identify },
  next,
) => {
  const domain = world.rebuild;
  let partner: AuthenticatedPartner;
  try {
    partner = domain.authenticate(
      req.headers.get(credentialHeaders.partnerId),
      req.headers.get(credentialHeaders.apiKey),
    );
  } catch (failure) {
    // The contract's challenge: its own scheme, naming the two headers every request carries.
    throw challenged(failure, { "www-authenticate": registry[operationId].challenge });
  }
  identify({ partnerId: partner.id });
  domain.requireFeature(partner);
  let state: RateLimitState;
  try {
    state = domain.admit(partner);
  } catch (failure) {
    throw new FailureWithHeaders(failure, windowHeaders(domain.rateLimitState(partner)));
  }
  const headers = windowHeaders(state);
  // The answer is this request's own object: the headers go onto it, no copy (decisions/026).
  const withHeaders = (response: MockResponse): MockResponse => {
    response.headers = response.headers === undefined ? headers : Object.assign(headers, response.headers);
    return response;
  };
  let answer: MockResponse | Promise<MockResponse>;
  try {
    answer = next({ partner });
  } catch (failure) {
    throw new FailureWithHeaders(failure, headers);
  }
  if (!(answer instanceof Promise)) return withHeaders(answer);
  return answer.then(withHeaders, (failure: unknown) => {
    throw new FailureWithHeaders(failure, headers);
  });
};

/** The Partner site rebuild API, paths below its base (which has no version segment). */
export const rebuildRoutes = mountOperations<
  WorldCore,
  typeof routes,
  OperationInputs,
  operations,
  RebuildContext
>({
  routes,
  registry,
  validators,
  guard,
  handlers: {
    "/api/integration/partners/hostpanel/rebuilds": {
      post: ({ world, partner, body }) => {
        const { created, rebuild } = world.rebuild.submit(partner, body);
        return created ? { status: 202, body: rebuild } : { status: 200, body: rebuild };
      },
    },
  },
});
