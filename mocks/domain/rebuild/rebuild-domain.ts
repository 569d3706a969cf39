import type { Clock } from "../clock.js";
import { DomainError, validationFailed } from "../errors.js";
import { type Random, randomGuid } from "../random.js";
import { formatTimestamp } from "../timestamp.js";
import { callbackPayload, previewUrlOf } from "./callback-payload.js";
import { parseClone, parseCompletion, parseMagicLink } from "./control-input.js";
import { createDeliverer } from "./deliveries.js";
import { canonicalIp } from "./ip-address.js";
import { DEFAULT_ERROR_CODE, DEFAULT_ERROR_MESSAGE, type Outcome, scriptedOutcome } from "./outcome.js";
import { applyPartnerPatch, defaultPartner, parsePartnerId } from "./partner-settings.js";
import { projectIdFromPromptToken } from "./prompt-token.js";
import { createRateWindows, type RateLimitState } from "./rate-window.js";
import { generateKey, sameKey } from "./secrets.js";
import { defaultRebuildSeed, loadSeedPartners, type RebuildSeed } from "./seed.js";
import { type CheckedRebuildSnapshot, type RebuildSnapshot, rebuildSnapshotOf } from "./snapshot.js";
import { type ValidSubmission, validateSubmission } from "./submission.js";
import type {
  Brand,
  CallbackTransport,
  DeliveryRecord,
  PartnerSettings,
  ProjectOwner,
  ProjectRecord,
  RebuildRecord,
  RebuildState,
  RebuildView,
  RunningRebuildView,
  SinkEntry,
} from "./types.js";
import { createWebhookSink } from "./webhook-sink.js";

const DEFAULT_REBUILD_DELAY_MS = 5000;

export interface RebuildDomainOptions {
  clock: Clock;
  random: Random;
  /** Default {@link defaultRebuildSeed}; `reset()` returns to it. */
  seed?: RebuildSeed;
  /** Performs each callback POST. */
  transport: CallbackTransport;
  /** The mock's own origin (`http://127.0.0.1:4010`): the built-in sinks live under it and `{origin}` in seeds means it. */
  origin: string;
  /** How long a rebuild runs before completing on its own. Default 5000. */
  rebuildDelayMs?: number;
}

/** A caller that passed authentication; the other operations look its current settings up again. */
export interface AuthenticatedPartner {
  readonly id: number;
}

/** `created` true: a new rebuild, always running (answer 202); false: the partner's existing one for this URL (answer 200). */
type SubmitResult = { created: true; rebuild: RunningRebuildView } | { created: false; rebuild: RebuildView };

type MagicLinkResult = { assigned: true; projectId: string } | { assigned: false };

/**
 * The Partner site rebuild API as pure state and rules. The HTTP layer calls, for a submission:
 * `authenticate` (401) → `requireFeature` (403) → `admit` (429) → its own size, media type and JSON
 * checks → `submit` (400, 422, idempotency). After `requireFeature` passed, every response carries
 * the RateLimit-* headers: from `admit`'s result, or from `rateLimitState` when a later step (or
 * `admit` itself) failed.
 *
 * Outcomes are chosen by the source URL's host so tests and demos can steer them:
 * - a host starting with `fail.` completes `failed` with `error_code` `process_failed` and an
 *   `error_message`;
 * - a host starting with `stall.` stays `running` until the control API completes it;
 * - any other host completes `success` with `previewUrl` `https://preview.mock.example/projects/<projectId>`.
 *
 * Rebuilds complete `rebuildDelayMs` after submission, on the injected clock. Completion sets the
 * final state, then POSTs the callback through `transport`; a failed attempt is retried 10, 20, 40
 * and 80 s after it ended, each attempt reading the partner's current webhook URL and key.
 *
 * Control operations take parsed JSON bodies (`unknown`) and validate them (VALIDATION_FAILED with
 * field errors). Ids in paths that cannot exist get NOT_FOUND.
 */
export interface RebuildDomain {
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
   * Validates the parsed body (`undefined` for an empty one; VALIDATION_FAILED), requires webhooks
   * (WEBHOOKS_NOT_CONFIGURED), then returns the partner's rebuild for this normalised `sourceUrl`
   * if there is one, in any state (its prompt is kept), or starts a new one. Synchronous, so
   * concurrent identical submissions create exactly one rebuild.
   */
  submit(partner: AuthenticatedPartner, body: unknown): SubmitResult;
  /**
   * Control API: ends a running rebuild now (body `{ status?, errorCode?, errorMessage? }`, see
   * `CompletionInput`; empty means success). VALIDATION_FAILED, then NOT_FOUND for an unknown
   * request, CONFLICT when it is no longer running. Resolves once the first callback attempt has
   * ended and been recorded.
   */
  complete(requestId: string, body: unknown): Promise<RebuildRecord>;
  /**
   * Control API: a customer opens a magic link (body `{ partnerId, promptToken, customerId }`).
   * Assigns a new copy of the project when the token names a `success` rebuild of that partner;
   * any other token is ignored (`assigned: false`), never an error.
   */
  openMagicLink(body: unknown): MagicLinkResult;
  /**
   * Control API, "Clone to user" (body `{ userId }`): a new copy of a `success` rebuild's project.
   * VALIDATION_FAILED, then NOT_FOUND, then CONFLICT unless the rebuild succeeded.
   */
  clone(requestId: string, body: unknown): { projectId: string };
  /**
   * Control API: creates or changes a partner's console settings and returns them in full, keys
   * included. `partnerId` is a positive integer, as a number or a digit string (else
   * VALIDATION_FAILED at `partnerId`). `patch` holds any of `featureEnabled`, `apiKey`,
   * `webhookUrl` (string or null; `{origin}` is replaced), `webhookApiKey` (string or null),
   * `region`, `rateLimitPerHour` (integer ≥ 1) and `brands` (see `BrandSeed`); unknown fields and
   * wrong types get VALIDATION_FAILED, as does a rebuild key equal to the webhook key. An empty
   * patch (undefined) changes nothing. A new partner starts with the feature enabled, generated
   * keys, the built-in sink as webhook URL, region `eu` and 30 requests per hour.
   */
  upsertPartner(partnerId: unknown, patch: unknown): PartnerSettings;
  /** Control API: a new rebuild key; the old one stops working at once. NOT_FOUND for an unknown partner. */
  rotateKey(partnerId: unknown): { apiKey: string };
  /**
   * The partner's brand whose server IPs include `ip` (a dotted quad or IPv6 in any spelling; an
   * IPv4-mapped IPv6 address matches its IPv4 address), or null. NOT_FOUND for an unknown partner.
   */
  brandForServerIp(partnerId: unknown, ip: string): Brand | null;
  /**
   * The built-in webhook sink receives a POST (its body as text, null when empty). Any partner id
   * that can exist is accepted; others get NOT_FOUND. Keeps what `SINK_LIMITS` allows.
   */
  sinkReceive(partnerId: unknown, headers: Readonly<Record<string, string>>, text: string | null): void;
  /** What the sink holds for the partner, oldest first; bodies parsed when they are JSON. */
  sinkList(partnerId: unknown): SinkEntry[];
  /** Every rebuild, in submission order. */
  rebuilds(): RebuildRecord[];
  /** Every project: the ones rebuilds generated and their copies, in creation order. */
  projects(): ProjectRecord[];
  /** The most recent callback attempts (`DELIVERY_LOG_LIMIT`), in the order they ended. */
  deliveries(): DeliveryRecord[];
  /** A deep copy of the whole state (`GET /__mock/state`). Partner keys are included: it is a development tool. */
  state(): RebuildState;
  /** Everything needed to carry on later, pending work included (see `RebuildSnapshot`). */
  snapshot(): RebuildSnapshot;
  /** Replaces everything with a checked snapshot and schedules its pending work. */
  restore(snapshot: CheckedRebuildSnapshot): void;
  /** Back to the seed: rebuilds, projects, deliveries, the sink and rate windows cleared, pending work dropped. */
  reset(): void;
}

interface RebuildEntry {
  record: RebuildRecord;
  /** Cancels the scheduled completion; undefined once completed, or for a stalled rebuild. */
  cancelCompletion: (() => void) | undefined;
  /** When the scheduled completion falls due. */
  completesAt: number | undefined;
}

const PARTNER_ID_HEADER = /^[1-9][0-9]*$/;
// Compared against when the partner is unknown, so the answer takes as long as for a wrong key.
const NO_PARTNER_KEY = "\u0000";

export function createRebuildDomain(options: RebuildDomainOptions): RebuildDomain {
  const { clock, random, transport } = options;
  const origin = options.origin.replace(/\/+$/, "");
  // Only a missing seed means the default: null is a mistake loadSeedPartners reports.
  const { seed = defaultRebuildSeed } = options;
  const delayMs = options.rebuildDelayMs ?? DEFAULT_REBUILD_DELAY_MS;
  if (!Number.isFinite(delayMs) || delayMs < 0) {
    throw new RangeError(`rebuildDelayMs must be a finite, non-negative number, got ${delayMs}`);
  }

  let partners = new Map<number, PartnerSettings>();
  const rebuildsByRequest = new Map<string, RebuildEntry>();
  const rebuildsByUrl = new Map<string, RebuildEntry>();
  const rebuildsByProject = new Map<string, RebuildEntry>();
  let projectList: ProjectRecord[] = [];
  const sink = createWebhookSink();
  const rateWindows = createRateWindows(clock);
  const deliverer = createDeliverer({
    clock,
    transport,
    webhookOf: (partnerId) => {
      const settings = partners.get(partnerId);
      return { url: settings?.webhookUrl ?? null, apiKey: settings?.webhookApiKey ?? null };
    },
  });

  const loadSeed = () => {
    partners = loadSeedPartners(seed, random, origin);
  };
  loadSeed();

  const now = () => formatTimestamp(clock.now());

  // The HTTP layer holds an AuthenticatedPartner only for one request, but a control call may
  // run in between; a partner that vanished (reset) is no longer authenticated.
  const current = (partner: AuthenticatedPartner): PartnerSettings => {
    const settings = partners.get(partner.id);
    if (!settings) throw new DomainError("UNAUTHORIZED", "Unknown partner or invalid API key");
    return settings;
  };

  const knownPartner = (partnerId: unknown): PartnerSettings => {
    const id = parsePartnerId(partnerId);
    const settings = id === undefined ? undefined : partners.get(id);
    if (!settings) throw new DomainError("NOT_FOUND", `No partner ${String(partnerId)}`);
    return settings;
  };

  const sinkId = (partnerId: unknown): number => {
    const id = parsePartnerId(partnerId);
    if (id === undefined)
      throw new DomainError("NOT_FOUND", `No webhook sink for partner ${String(partnerId)}`);
    return id;
  };

  const rebuildEntry = (requestId: string): RebuildEntry => {
    const entry = rebuildsByRequest.get(requestId);
    if (!entry) throw new DomainError("NOT_FOUND", `No rebuild request ${requestId}`);
    return entry;
  };

  /** The rebuild's own project (`copiedFrom` null) or a new copy of it. */
  const addProject = (
    record: RebuildRecord,
    owner: ProjectOwner,
    copiedFrom: string | null,
  ): ProjectRecord => {
    const project: ProjectRecord = {
      projectId: copiedFrom === null ? record.projectId : randomGuid(random),
      partnerId: record.partnerId,
      requestId: record.requestId,
      owner,
      copiedFrom,
      createdAt: copiedFrom === null ? record.createdAt : now(),
    };
    projectList.push(project);
    return project;
  };

  const finish = (entry: RebuildEntry, outcome: Outcome): Promise<void> => {
    entry.cancelCompletion?.();
    entry.cancelCompletion = undefined;
    entry.completesAt = undefined;
    const base = { ...entry.record, completedAt: now() };
    const finished: RebuildRecord & { status: "success" | "failed" } =
      outcome.status === "success"
        ? { ...base, status: "success", previewUrl: previewUrlOf(base.projectId) }
        : {
            ...base,
            status: "failed",
            ...(outcome.errorCode === null ? {} : { errorCode: outcome.errorCode }),
            ...(outcome.errorMessage === null ? {} : { errorMessage: outcome.errorMessage }),
          };
    entry.record = finished;
    return deliverer.deliver(finished.partnerId, callbackPayload(finished));
  };

  /** Keeps a rebuild (new or restored) and schedules its completion at `completesAt`. */
  const track = (record: RebuildRecord, completesAt: number | undefined): RebuildEntry => {
    const entry: RebuildEntry = { record, cancelCompletion: undefined, completesAt };
    const outcome =
      record.status === "running" ? scriptedOutcome(new URL(record.normalizedSourceUrl).hostname) : undefined;
    if (outcome && completesAt !== undefined) {
      // complete() cancels this task, so when it runs the rebuild is still running.
      entry.cancelCompletion = clock.schedule(completesAt, () => finish(entry, outcome));
    }
    rebuildsByRequest.set(record.requestId, entry);
    rebuildsByProject.set(record.projectId, entry);
    rebuildsByUrl.set(`${record.partnerId} ${record.normalizedSourceUrl}`, entry);
    return entry;
  };

  const start = (partnerId: number, submission: ValidSubmission): RebuildEntry => {
    const record: RebuildRecord = {
      requestId: randomGuid(random),
      projectId: randomGuid(random),
      partnerId,
      sourceUrl: submission.sourceUrl,
      normalizedSourceUrl: submission.normalizedUrl,
      prompt: submission.prompt,
      status: "running",
      createdAt: now(),
    };
    const entry = track(record, scriptedOutcome(submission.hostname) ? clock.now() + delayMs : undefined);
    addProject(record, { kind: "system" }, null);
    return entry;
  };

  const rebuilds = () => [...rebuildsByRequest.values()].map((entry) => structuredClone(entry.record));
  const projects = () => structuredClone(projectList);

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
      const matches = sameKey(apiKeyHeader, settings?.apiKey ?? NO_PARTNER_KEY);
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

    admit(partner) {
      return rateWindows.admit(partner.id, current(partner).rateLimitPerHour);
    },

    rateLimitState(partner) {
      return rateWindows.state(partner.id, current(partner).rateLimitPerHour);
    },

    submit(partner, body) {
      const settings = current(partner);
      const submission = validateSubmission(body);
      if (settings.webhookUrl === null || settings.webhookApiKey === null) {
        throw new DomainError(
          "WEBHOOKS_NOT_CONFIGURED",
          "Configure a webhook endpoint and a webhook API key before submitting rebuilds",
        );
      }
      const key = `${settings.id} ${submission.normalizedUrl}`;
      const existing = rebuildsByUrl.get(key);
      if (existing) return { created: false, rebuild: viewOf(existing.record) };
      const entry = start(settings.id, submission);
      const { requestId, projectId } = entry.record;
      return { created: true, rebuild: { requestId, projectId, status: "running" } };
    },

    async complete(requestId, body) {
      const input = parseCompletion(body);
      const entry = rebuildEntry(requestId);
      if (entry.record.status !== "running") {
        throw new DomainError(
          "CONFLICT",
          `Rebuild ${requestId} is no longer running (${entry.record.status})`,
        );
      }
      const outcome: Outcome =
        input.status === "success"
          ? { status: "success" }
          : {
              status: "failed",
              errorCode: input.errorCode === undefined ? DEFAULT_ERROR_CODE : input.errorCode,
              errorMessage: input.errorMessage === undefined ? DEFAULT_ERROR_MESSAGE : input.errorMessage,
            };
      await finish(entry, outcome);
      return structuredClone(entry.record);
    },

    openMagicLink(body) {
      const { partnerId, promptToken, customerId } = parseMagicLink(body);
      const projectId = projectIdFromPromptToken(promptToken);
      const entry = projectId === undefined ? undefined : rebuildsByProject.get(projectId);
      if (!entry || entry.record.partnerId !== partnerId || entry.record.status !== "success") {
        return { assigned: false };
      }
      const copy = addProject(entry.record, { kind: "customer", customerId }, entry.record.projectId);
      return { assigned: true, projectId: copy.projectId };
    },

    clone(requestId, body) {
      const { userId } = parseClone(body);
      const entry = rebuildEntry(requestId);
      if (entry.record.status !== "success") {
        throw new DomainError(
          "CONFLICT",
          `Only a successful rebuild can be cloned; ${requestId} is ${entry.record.status}`,
        );
      }
      return {
        projectId: addProject(entry.record, { kind: "user", userId }, entry.record.projectId).projectId,
      };
    },

    upsertPartner(partnerId, patch) {
      const id = parsePartnerId(partnerId);
      if (id === undefined) {
        throw validationFailed([
          { type: "invalid_value", path: "partnerId", message: "must be a positive integer" },
        ]);
      }
      const settings = applyPartnerPatch(
        partners.get(id) ?? defaultPartner(id, random, origin),
        patch,
        origin,
      );
      partners.set(id, settings);
      return structuredClone(settings);
    },

    rotateKey(partnerId) {
      const settings = knownPartner(partnerId);
      let apiKey: string;
      do apiKey = generateKey(random, "rk");
      while (apiKey === settings.apiKey || apiKey === settings.webhookApiKey);
      partners.set(settings.id, { ...settings, apiKey });
      return { apiKey };
    },

    brandForServerIp(partnerId, ip) {
      const { brands } = knownPartner(partnerId);
      const address = canonicalIp(ip);
      const brand = address === undefined ? undefined : brands.find((b) => b.serverIps.includes(address));
      return brand ? structuredClone(brand) : null;
    },

    sinkReceive(partnerId, headers, text) {
      const id = sinkId(partnerId);
      const lowerCased = Object.fromEntries(
        Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
      );
      sink.receive(id, { headers: lowerCased, text, at: now() });
    },

    sinkList(partnerId) {
      return sink.list(sinkId(partnerId));
    },

    rebuilds,
    projects,
    deliveries: deliverer.records,

    state: () => ({
      partners: [...partners.values()].map((p) => structuredClone(p)).sort((a, b) => a.id - b.id),
      rebuilds: rebuilds(),
      projects: projects(),
      deliveries: deliverer.records(),
      sink: sink.view(),
      dropped: { deliveries: deliverer.dropped(), sink: sink.dropped },
    }),

    snapshot: () =>
      rebuildSnapshotOf(origin, {
        partners: partners.values(),
        rebuilds: [...rebuildsByRequest.values()],
        projects: projectList,
        deliveries: { log: deliverer.records(), dropped: deliverer.dropped(), pending: deliverer.pending() },
        sink: { entries: sink.stored(), dropped: sink.dropped },
        rateWindows: rateWindows.times(),
      }),

    restore(snapshot) {
      clear();
      partners = new Map([...snapshot.partners].map(([id, settings]) => [id, structuredClone(settings)]));
      for (const { record, completesAt } of snapshot.rebuilds) track(structuredClone(record), completesAt);
      projectList = structuredClone(snapshot.projects);
      const { deliveries } = snapshot;
      deliverer.restore(deliveries.log, deliveries.dropped, deliveries.pending);
      sink.restore(snapshot.sink.entries, snapshot.sink.dropped);
      rateWindows.restore(snapshot.rateWindows);
    },

    reset() {
      clear();
      loadSeed();
    },
  };

  function clear() {
    for (const entry of rebuildsByRequest.values()) entry.cancelCompletion?.();
    rebuildsByRequest.clear();
    rebuildsByUrl.clear();
    rebuildsByProject.clear();
    projectList = [];
    sink.clear();
    rateWindows.clear();
    deliverer.reset();
  }
}

function viewOf({ requestId, projectId, status, previewUrl }: RebuildRecord): RebuildView {
  if (status === "success")
    return { requestId, projectId, status, previewUrl: previewUrl ?? previewUrlOf(projectId) };
  return { requestId, projectId, status };
}
