import { webhooks } from "../../../src/generated/rebuild-operations.js";
import { createBoundedLog } from "../bounded-log.js";
import type { Clock } from "../clock.js";
import { formatTimestamp } from "../timestamp.js";
import { callbackHeaders } from "./callback-payload.js";
import type { CallbackTransport, DeliveryRecord, RebuildCallbackPayload } from "./types.js";

/**
 * Waits after a failed attempt ended before the next one (the callback's `x-callback-retry-delays`
 * in openapi/rebuild.yaml, seconds): one attempt more than there are waits.
 */
const RETRY_DELAYS_MS: readonly number[] = webhooks.partnerProjectRebuildCompleted.retryDelaysSeconds.map(
  (seconds) => seconds * 1000,
);

/** The delivery log keeps this many most recent attempts; older ones are dropped and counted. */
export const DELIVERY_LOG_LIMIT = 1000;

// A running attempt cannot be cancelled; a reset makes it record nothing instead (`generation`).
const NOTHING_TO_CANCEL = () => undefined;

/** A partner's webhook as configured at the moment of an attempt. */
interface WebhookTarget {
  url: string | null;
  apiKey: string | null;
}

/** An attempt that has not ended yet: scheduled (a retry) or running. What a snapshot keeps of it. */
export interface PendingAttempt {
  partnerId: number;
  payload: RebuildCallbackPayload;
  /** 1 to 5. */
  attempt: number;
  /** When it falls due (a running attempt: when it started, so a restored one runs again at once). */
  dueAt: number;
}

export interface Deliverer {
  /**
   * Makes the first attempt and resolves when it has ended and been recorded; failed attempts
   * schedule their retry on the clock.
   */
  deliver(partnerId: number, payload: RebuildCallbackPayload): Promise<void>;
  /** The attempts kept (at most `DELIVERY_LOG_LIMIT`), in the order they ended. */
  records(): DeliveryRecord[];
  /** How many older attempts the log dropped. */
  dropped(): number;
  /** Attempts not ended yet, scheduled and running, by due time. */
  pending(): PendingAttempt[];
  /** Forgets every record and drops pending retries, including ones whose attempt is in flight. */
  reset(): void;
  /** Replaces everything with a snapshot's log and pending attempts (scheduled again at their due times). */
  restore(records: readonly DeliveryRecord[], dropped: number, pending: readonly PendingAttempt[]): void;
}

export interface DelivererOptions {
  clock: Clock;
  transport: CallbackTransport;
  /** Read afresh for every attempt, so a retry goes to the partner's current URL with the current key. */
  webhookOf(partnerId: number): WebhookTarget;
}

/**
 * Callback attempts. Each attempt is its own clock task, so attempts that fall due together run at
 * once and a slow receiver holds back nobody else's callback. An attempt ends, in virtual time,
 * when it started plus the time it really took while the clock follows real time (nothing while
 * frozen), and its retry falls due a fixed delay after that: deterministic on a frozen clock.
 */
export function createDeliverer({ clock, transport, webhookOf }: DelivererOptions): Deliverer {
  const log = createBoundedLog<DeliveryRecord>(DELIVERY_LOG_LIMIT);
  // Scheduled retries and running attempts, each with what cancels it (nothing, once running).
  const pending = new Map<PendingAttempt, () => void>();
  // An attempt in flight when the state is reset must neither record nor retry afterwards.
  let generation = 0;

  const schedule = (next: PendingAttempt) => {
    const cancel = clock.schedule(next.dueAt, () => {
      pending.delete(next);
      return attempt(next.partnerId, next.payload, next.attempt);
    });
    pending.set(next, cancel);
  };

  const attempt = async (partnerId: number, payload: RebuildCallbackPayload, number: number) => {
    const started = generation;
    const startedAt = clock.now();
    const elapsed = clock.stopwatch();
    const running: PendingAttempt = { partnerId, payload, attempt: number, dueAt: startedAt };
    pending.set(running, NOTHING_TO_CANCEL);
    const { url, apiKey } = webhookOf(partnerId);
    // Nothing is sent without both a URL and a key; the record still shows the headers it would have.
    const configured = url !== null && apiKey !== null;
    const headers = callbackHeaders(configured ? apiKey : null);
    const responseStatus = configured ? await post(transport, url, headers, JSON.stringify(payload)) : null;
    if (started !== generation) return;
    pending.delete(running);
    log.push({
      requestId: payload.request_id,
      url,
      attempt: number,
      headers,
      body: payload,
      responseStatus,
      at: formatTimestamp(startedAt),
    });
    const delay = RETRY_DELAYS_MS[number - 1];
    if (responseStatus !== null && responseStatus >= 200 && responseStatus < 300) return;
    if (delay === undefined) return;
    schedule({ partnerId, payload, attempt: number + 1, dueAt: startedAt + elapsed() + delay });
  };

  const clear = () => {
    generation++;
    for (const cancel of pending.values()) cancel();
    pending.clear();
    log.clear();
  };

  return {
    deliver: (partnerId, payload) => attempt(partnerId, payload, 1),
    records: () => log.items().map((record) => structuredClone(record)),
    dropped: () => log.dropped,
    pending: () => [...pending.keys()].map((p) => structuredClone(p)).sort((a, b) => a.dueAt - b.dueAt),
    reset: clear,
    restore(records, dropped, attempts) {
      clear();
      log.restore(
        records.map((record) => structuredClone(record)),
        dropped,
      );
      for (const next of attempts) schedule(structuredClone(next));
    },
  };
}

async function post(
  transport: CallbackTransport,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<number | null> {
  try {
    // A copy the transport may keep or change; Object.assign, as a spread costs more (decisions/026).
    const result = await transport({ url, headers: Object.assign({}, headers), body });
    return "status" in result ? result.status : null;
  } catch {
    return null;
  }
}
