/** The plain, JSON-serialisable shapes the rebuild domain hands out. */

type RebuildStatus = "running" | "success" | "failed";

export interface RunningRebuildView {
  requestId: string;
  projectId: string;
  status: "running";
}

/** A rebuild as the public API answers it: `previewUrl` only when `status` is `success`. */
export type RebuildView =
  | RunningRebuildView
  | { requestId: string; projectId: string; status: "failed" }
  | { requestId: string; projectId: string; status: "success"; previewUrl: string };

/** Everything the mock knows about a rebuild (control API and snapshots). */
export interface RebuildRecord {
  requestId: string;
  projectId: string;
  partnerId: number;
  /** As first submitted. */
  sourceUrl: string;
  /** The idempotency key's URL part: WHATWG-normalised, without the fragment. */
  normalizedSourceUrl: string;
  /** null when omitted (the service's default modernization prompt applies). */
  prompt: string | null;
  status: RebuildStatus;
  previewUrl?: string;
  errorCode?: string;
  errorMessage?: string;
  createdAt: string;
  completedAt?: string;
}

export type ProjectOwner =
  | { kind: "system" }
  | { kind: "customer"; customerId: string }
  | { kind: "user"; userId: string };

/**
 * A project: the one a rebuild generates (held by the system account, `copiedFrom` null) or an
 * independent copy made by a magic link (owner `customer`) or "Clone to user" (owner `user`).
 */
export interface ProjectRecord {
  projectId: string;
  partnerId: number;
  requestId: string;
  owner: ProjectOwner;
  copiedFrom: string | null;
  createdAt: string;
}

/** The completion callback's JSON body (snake_case, as the source documents it). */
export interface RebuildCallbackPayload {
  event_type: "partner_project_rebuild_completed";
  request_id: string;
  partner_id: number;
  project_id: string;
  source_url: string;
  status: "success" | "failed";
  preview_url?: string;
  error_code?: string;
  error_message?: string;
}

/** One callback attempt, recorded whatever its outcome. */
export interface DeliveryRecord {
  requestId: string;
  /** The webhook URL read at attempt time; null when none was configured (nothing was sent). */
  url: string | null;
  /** 1 to 5. */
  attempt: number;
  /** Lower-case names, the webhook key included (a development tool shows what was sent). */
  headers: Record<string, string>;
  body: RebuildCallbackPayload;
  /** The receiver's status, or null on a network error, a timeout, or no webhook configured. */
  responseStatus: number | null;
  /** When the attempt started. */
  at: string;
}

/** One request received by the built-in webhook sink. */
export interface SinkEntry {
  /** Lower-case names. */
  headers: Record<string, string>;
  body: unknown;
  at: string;
}

/** One callback POST for the transport port to perform. */
export interface CallbackDelivery {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Performs one callback POST. Adapters implement it (the 10 s timeout included, reported as
 * `{ error: "timeout" }`); any non-2xx status, error or rejection counts as a failed attempt.
 */
export type CallbackTransport = (
  delivery: CallbackDelivery,
) => Promise<{ status: number } | { error: string }>;

export interface BrandTheme {
  /** Name → CSS hex colour (`#1a2b3c`). */
  colors: Record<string, string>;
  /** Name → CSS gradient text. */
  gradients: Record<string, string>;
}

/** A partner brand; a customer gets the brand whose `serverIps` holds the panel server they log in from. */
export interface Brand {
  name: string;
  theme: BrandTheme;
  loginUrl: string;
  upgradeUrl: string;
  domainPurchaseUrl: string;
  /** Canonical IP text (IPv4 dotted quad, IPv6 RFC 5952). */
  serverIps: string[];
  /** Replaces the default builder address; requested from the provider. */
  customDomain?: string;
}

/** A partner's console settings, keys included (this is mock state for a development tool). */
export interface PartnerSettings {
  id: number;
  featureEnabled: boolean;
  /** The rebuild API key (`X-API-Key`). */
  apiKey: string;
  webhookUrl: string | null;
  /** Sent as `X-API-Key` on callbacks; never accepted by the rebuild API. */
  webhookApiKey: string | null;
  /** Backend region for new projects. */
  region: string;
  rateLimitPerHour: number;
  brands: Brand[];
}

/** The rebuild side of `GET /__mock/state`: everything, keys included (a development tool). */
export interface RebuildState {
  partners: PartnerSettings[];
  rebuilds: RebuildRecord[];
  projects: ProjectRecord[];
  /** The most recent attempts (see `DELIVERY_LOG_LIMIT`). */
  deliveries: DeliveryRecord[];
  /** Sink entries per partner id (see `SINK_LIMITS`). */
  sink: Record<string, SinkEntry[]>;
  /** How many delivery records and sink entries were dropped to stay within their limits. */
  dropped: { deliveries: number; sink: number };
}
