import type { Clock } from "../clock.js";
import { formatTimestamp } from "../timestamp.js";
import type { CallbackTransport, DeliveryRecord, RebuildCallbackPayload } from "./types.js";

/** Waits after a failed attempt ended before the next one: 5 attempts in all. */
const RETRY_DELAYS_MS: readonly number[] = [10_000, 20_000, 40_000, 80_000];

/** A partner's webhook as configured at the moment of an attempt. */
interface WebhookTarget {
  url: string | null;
  apiKey: string | null;
}

export interface Deliverer {
  /**
   * Makes the first attempt and resolves when it has ended and been recorded; failed attempts
   * schedule their retry on the clock.
   */
  deliver(partnerId: number, payload: RebuildCallbackPayload): Promise<void>;
  /** Every attempt so far, in the order they ended. */
  records(): DeliveryRecord[];
  /** Forgets every record and drops pending retries, including ones whose attempt is in flight. */
  reset(): void;
}

export interface DelivererOptions {
  clock: Clock;
  transport: CallbackTransport;
  /** Read afresh for every attempt, so a retry goes to the partner's current URL with the current key. */
  webhookOf(partnerId: number): WebhookTarget;
}

export function createDeliverer({ clock, transport, webhookOf }: DelivererOptions): Deliverer {
  let records: DeliveryRecord[] = [];
  const pending = new Set<() => void>();
  // An attempt in flight when the state is reset must neither record nor retry afterwards.
  let generation = 0;

  const attempt = async (partnerId: number, payload: RebuildCallbackPayload, number: number) => {
    const started = generation;
    const at = formatTimestamp(clock.now());
    const { url, apiKey } = webhookOf(partnerId);
    const headers: Record<string, string> = { "content-type": "application/json" };
    let responseStatus: number | null = null;
    if (url !== null && apiKey !== null) {
      headers["x-api-key"] = apiKey;
      responseStatus = await post(transport, url, headers, JSON.stringify(payload));
    }
    if (started !== generation) return;
    records.push({
      requestId: payload.request_id,
      url,
      attempt: number,
      headers,
      body: payload,
      responseStatus,
      at,
    });
    const delay = RETRY_DELAYS_MS[number - 1];
    if (responseStatus !== null && responseStatus >= 200 && responseStatus < 300) return;
    if (delay === undefined) return;
    const cancel = clock.schedule(clock.now() + delay, () => {
      pending.delete(cancel);
      return attempt(partnerId, payload, number + 1);
    });
    pending.add(cancel);
  };

  return {
    deliver: (partnerId, payload) => attempt(partnerId, payload, 1),
    records: () => records.map((record) => structuredClone(record)),
    reset() {
      generation++;
      for (const cancel of pending) cancel();
      pending.clear();
      records = [];
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
    const result = await transport({ url, headers: { ...headers }, body });
    return "status" in result ? result.status : null;
  } catch {
    return null;
  }
}
