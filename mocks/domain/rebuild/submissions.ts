// The Partner site rebuild API's one operation, in the contract's check order: authentication (401),
// the feature flag (403), the rate limit (429); then, once the route checked the body against the
// contract, the public host (400), webhooks configured (422) and idempotency.

import { timingSafeEqual } from "../../../src/core/timing-safe-equal.js";
import type { OperationInputs } from "../../../src/generated/rebuild-validators.js";
import type { Clock } from "../clock.js";
import { DomainError, validationFailed } from "../errors.js";
import { type Random, randomGuid } from "../random.js";
import { remembered } from "../remembered.js";
import { formatTimestamp } from "../timestamp.js";
import { previewUrlOf } from "./callback-payload.js";
import type { Completion } from "./completion.js";
import type { RebuildLedger } from "./ledger.js";
import type { PartnerBook } from "./partners.js";
import type { ProjectRegistry } from "./projects.js";
import type { RateLimitState, RateWindows } from "./rate-window.js";
import { acceptSourceUrl } from "./source-url.js";
import type { PartnerSettings, RebuildRecord, RebuildView, RunningRebuildView } from "./types.js";

/** A caller that passed authentication; the other operations look its current settings up again. */
export interface AuthenticatedPartner {
  readonly id: number;
}

/** `created` true: a new rebuild, always running (answer 202); false: the partner's existing one for this URL (answer 200). */
type SubmitResult = { created: true; rebuild: RunningRebuildView } | { created: false; rebuild: RebuildView };

export interface Submissions {
  /**
   * UNAUTHORIZED unless `partnerIdHeader` is a positive integer in plain digits without a leading
   * zero, naming a known partner, and `apiKeyHeader` is that partner's current rebuild key (compared
   * in constant time; the webhook key never matches). Headers are passed as read, null when absent.
   */
  authenticate(partnerIdHeader: string | null, apiKeyHeader: string | null): AuthenticatedPartner;
  /** FEATURE_NOT_ENABLED unless the partner has the rebuild feature. */
  requireFeature(partner: AuthenticatedPartner): void;
  /**
   * Counts the request in the partner's sliding hour and returns the RateLimit-* values, or throws
   * RATE_LIMIT_EXCEEDED with `retryAfterSeconds` without counting it. Every admitted request
   * counts, whatever happens to it later.
   */
  admit(partner: AuthenticatedPartner): RateLimitState;
  /** The RateLimit-* values without counting anything. */
  rateLimitState(partner: AuthenticatedPartner): RateLimitState;
  /**
   * A body the contract's schema accepted: the public-host rule (VALIDATION_FAILED), webhooks
   * (WEBHOOKS_NOT_CONFIGURED), then the partner's rebuild for this normalised `sourceUrl` in any
   * state (its prompt kept), or a new one. Synchronous, so concurrent identical submissions create
   * exactly one rebuild.
   */
  submit(partner: AuthenticatedPartner, body: OperationInputs["submitRebuild"]["body"]): SubmitResult;
}

const PARTNER_ID_HEADER = /^[1-9][0-9]*$/;
// Compared against when the partner is unknown, so the answer takes as long as for a wrong key.
const NO_PARTNER_KEY = new Uint8Array([0]);
const utf8 = new TextEncoder();
// A partner's key as bytes, remembered (decisions/036's memo): every request compares against it.
// Keyed by the key itself, so a rotated or changed key is never compared in an old form.
const keyBytes = remembered((key: string) => utf8.encode(key), { capacity: 64, longestKey: 1024 });

export function createSubmissions({
  clock,
  random,
  partners,
  ledger,
  projects,
  rateWindows,
  completion,
}: {
  clock: Clock;
  random: Random;
  partners: PartnerBook;
  ledger: RebuildLedger;
  projects: ProjectRegistry;
  rateWindows: RateWindows;
  completion: Completion;
}): Submissions {
  // The route holds an AuthenticatedPartner only for one request, but a control call may run in
  // between; a partner that vanished (reset) is no longer authenticated.
  const current = (partner: AuthenticatedPartner): PartnerSettings => {
    const settings = partners.get(partner.id);
    if (!settings) throw new DomainError("UNAUTHORIZED", "Unknown partner or invalid API key");
    return settings;
  };

  return {
    authenticate(partnerIdHeader, apiKeyHeader) {
      if (partnerIdHeader === null || partnerIdHeader === "") {
        throw new DomainError("UNAUTHORIZED", "Missing X-Partner-Id header");
      }
      if (!PARTNER_ID_HEADER.test(partnerIdHeader)) {
        throw new DomainError(
          "UNAUTHORIZED",
          "X-Partner-Id must be a positive integer written in plain digits",
        );
      }
      if (apiKeyHeader === null || apiKeyHeader === "") {
        throw new DomainError("UNAUTHORIZED", "Missing X-API-Key header");
      }
      const id = Number(partnerIdHeader);
      const settings = Number.isSafeInteger(id) ? partners.get(id) : undefined;
      const expected = settings ? keyBytes(settings.apiKey) : NO_PARTNER_KEY;
      const matches = timingSafeEqual(expected, utf8.encode(apiKeyHeader));
      if (!settings || !matches) throw new DomainError("UNAUTHORIZED", "Unknown partner or invalid API key");
      return { id };
    },

    requireFeature(partner) {
      if (!current(partner).featureEnabled) {
        throw new DomainError(
          "FEATURE_NOT_ENABLED",
          `The site rebuild feature is not enabled for partner ${partner.id}`,
        );
      }
    },

    admit: (partner) => rateWindows.admit(partner.id, current(partner).rateLimitPerHour),
    rateLimitState: (partner) => rateWindows.state(partner.id, current(partner).rateLimitPerHour),

    submit(partner, { sourceUrl, prompt }) {
      const settings = current(partner);
      const accepted = acceptSourceUrl(sourceUrl, "sourceUrl");
      if ("type" in accepted) throw validationFailed([accepted]);
      if (settings.webhookUrl === null || settings.webhookApiKey === null) {
        throw new DomainError(
          "WEBHOOKS_NOT_CONFIGURED",
          "Configure a webhook endpoint and a webhook API key before submitting rebuilds",
        );
      }
      const existing = ledger.forUrl(settings.id, accepted.normalizedUrl);
      if (existing) return { created: false, rebuild: viewOf(existing.record) };
      const record: RebuildRecord = {
        requestId: randomGuid(random),
        projectId: randomGuid(random),
        partnerId: settings.id,
        sourceUrl,
        normalizedSourceUrl: accepted.normalizedUrl,
        prompt: prompt ?? null,
        status: "running",
        createdAt: formatTimestamp(clock.now()),
      };
      completion.track(record, completion.completesAt(accepted.hostname), accepted.hostname);
      projects.add(record, { kind: "system" }, null);
      const { requestId, projectId } = record;
      return { created: true, rebuild: { requestId, projectId, status: "running" } };
    },
  };
}

function viewOf({ requestId, projectId, status, previewUrl }: RebuildRecord): RebuildView {
  if (status === "success")
    return { requestId, projectId, status, previewUrl: previewUrl ?? previewUrlOf(projectId) };
  return { requestId, projectId, status };
}
