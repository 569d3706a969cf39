import type { Clock } from "../clock.js";
import type { Random } from "../random.js";
import { formatTimestamp } from "../timestamp.js";
import { type Assignment, createAssignment } from "./assignment.js";
import { type Completion, createCompletion } from "./completion.js";
import { createDeliverer } from "./deliveries.js";
import { createRebuildLedger } from "./ledger.js";
import { createPartnerBook, type PartnerSettingsFields } from "./partners.js";
import { createProjectRegistry } from "./projects.js";
import { createRateWindows } from "./rate-window.js";
import type { RebuildSeed } from "./seed.js";
import {
  type CheckedRebuildSnapshot,
  checkRebuildSnapshot,
  type RebuildSnapshot,
  rebuildSnapshotOf,
} from "./snapshot.js";
import { createSubmissions, type Submissions } from "./submissions.js";
import type {
  CallbackTransport,
  DeliveryRecord,
  PartnerSettings,
  RebuildRecord,
  RebuildState,
  SinkEntry,
} from "./types.js";
import { createWebhookSink } from "./webhook-sink.js";

const DEFAULT_REBUILD_DELAY_MS = 5000;

export interface RebuildDomainOptions {
  clock: Clock;
  random: Random;
  /** Checked against the contract already (the world's seed schema); `reset()` returns to it. */
  seed: RebuildSeed;
  /** Performs each callback POST. */
  transport: CallbackTransport;
  /** The mock's own origin (`http://127.0.0.1:4010`): the built-in sinks live under it and `{origin}` in seeds means it. */
  origin: string;
  /** How long a rebuild runs before completing on its own. Default 5000. */
  rebuildDelayMs?: number;
}

/**
 * The Partner site rebuild API and the partner console around it, as pure state and rules, one
 * concern per file: submissions (authentication, feature, rate limit, idempotency), completion and
 * callback delivery, assignment (magic links, clones), the partner console, the webhook sink, and
 * the state and snapshots. Outcomes are chosen by the source URL's host so tests and demos can
 * steer them (outcome.ts). The domain is one object for the world's whole life: `reset` and
 * `restore` replace its state in place.
 */
export interface RebuildDomain extends Submissions, Pick<Assignment, "openMagicLink" | "clone"> {
  complete: Completion["complete"];
  /** Creates or changes a partner's console settings and returns them in full, keys included. */
  upsertPartner(partnerId: number, fields: PartnerSettingsFields | undefined): PartnerSettings;
  /** A new rebuild key; the old one stops working at once. NOT_FOUND for an unknown partner. */
  rotateKey(partnerId: number): { apiKey: string };
  /** The built-in webhook sink receives a POST (its body as text, null when empty). */
  sinkReceive(partnerId: number, headers: Readonly<Record<string, string>>, text: string | null): void;
  /** What the sink holds for the partner, oldest first; bodies parsed when they are JSON. */
  sinkList(partnerId: number): SinkEntry[];
  /** Every rebuild, in submission order. */
  rebuilds(): RebuildRecord[];
  /** The most recent callback attempts (`DELIVERY_LOG_LIMIT`), in the order they ended. */
  deliveries(): DeliveryRecord[];
  /** A deep copy of the whole state (`GET /__mock/state`). Partner keys are included: it is a development tool. */
  state(): RebuildState;
  /** Everything needed to carry on later, pending work included. */
  snapshot(): RebuildSnapshot;
  /** The snapshot checked for `restore` (VALIDATION_FAILED below `path`), changing nothing. */
  check(snapshot: RebuildSnapshot, path: string): CheckedRebuildSnapshot;
  /** Replaces everything with a checked snapshot and schedules its pending work. */
  restore(snapshot: CheckedRebuildSnapshot): void;
  /** Back to the seed: rebuilds, projects, deliveries, the sink and rate windows cleared, pending work dropped. */
  reset(): void;
}

export function createRebuildDomain(options: RebuildDomainOptions): RebuildDomain {
  const { clock, random, transport, seed } = options;
  const origin = options.origin.replace(/\/+$/, "");
  const delayMs = options.rebuildDelayMs ?? DEFAULT_REBUILD_DELAY_MS;
  if (!Number.isFinite(delayMs) || delayMs < 0) {
    throw new RangeError(`rebuildDelayMs must be a finite, non-negative number, got ${delayMs}`);
  }

  const partners = createPartnerBook(origin, random);
  const ledger = createRebuildLedger();
  const projects = createProjectRegistry(clock, random);
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
  const completion = createCompletion({ clock, ledger, deliverer, delayMs });
  const submissions = createSubmissions({
    clock,
    random,
    partners,
    ledger,
    projects,
    rateWindows,
    completion,
  });
  const assignment = createAssignment({ ledger, projects, partners });

  const clear = () => {
    ledger.clear();
    projects.replace([]);
    sink.clear();
    rateWindows.clear();
    deliverer.reset();
  };
  const loadSeed = () => partners.replace(partners.read(seed.partners, "rebuild.partners"));
  loadSeed();

  const rebuilds = () => Array.from(ledger.entries(), (entry) => structuredClone(entry.record));

  return {
    ...submissions,
    openMagicLink: assignment.openMagicLink,
    clone: assignment.clone,
    complete: completion.complete,
    upsertPartner: (id, fields) => partners.upsert(id, fields),
    rotateKey: (id) => partners.rotateKey(id),
    sinkReceive(partnerId, headers, text) {
      // A loop, not entries/map/fromEntries: the sink receives every completion's callback.
      const lowerCased: Record<string, string> = {};
      for (const name of Object.keys(headers)) lowerCased[name.toLowerCase()] = headers[name] as string;
      sink.receive(partnerId, { headers: lowerCased, text, at: formatTimestamp(clock.now()) });
    },
    sinkList: (partnerId) => sink.list(partnerId),
    rebuilds,
    deliveries: deliverer.records,
    state: () => {
      const all = partners.all();
      return {
        partners: all,
        rateLimits: all.map(({ id, rateLimitPerHour }) => {
          const { used, limit, nextSlotAt } = rateWindows.usage(id, rateLimitPerHour);
          return {
            partnerId: id,
            used,
            limit,
            nextSlotAt: nextSlotAt === null ? null : formatTimestamp(nextSlotAt),
          };
        }),
        rebuilds: rebuilds(),
        projects: projects.list(),
        deliveries: deliverer.records(),
        sink: sink.view(),
        dropped: { deliveries: deliverer.dropped(), sink: sink.dropped },
      };
    },
    snapshot: () =>
      rebuildSnapshotOf(origin, {
        partners: partners.all(),
        rebuilds: ledger.entries(),
        projects: projects.list(),
        deliveries: { log: deliverer.records(), dropped: deliverer.dropped(), pending: deliverer.pending() },
        sink: { entries: sink.stored(), dropped: sink.dropped },
        rateWindows: rateWindows.times(),
      }),
    check: (snapshot, path) => checkRebuildSnapshot(snapshot, path, partners),
    restore(snapshot) {
      clear();
      partners.replace(snapshot.partners);
      for (const { record, completesAt } of snapshot.rebuilds)
        completion.track(structuredClone(record), completesAt);
      projects.replace(snapshot.projects);
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
}
