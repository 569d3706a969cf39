// How rebuilds end: on their own after the rebuild delay (as the source URL's host scripts it), or
// now through the control API; either way the final state is set, then the callback is delivered.
import type { components } from "../../../src/generated/mock-control.js";
import type { Clock } from "../clock.js";
import { DomainError } from "../errors.js";
import { formatTimestamp } from "../timestamp.js";
import { callbackPayload, previewUrlOf } from "./callback-payload.js";
import type { Deliverer } from "./deliveries.js";
import type { RebuildEntry, RebuildLedger } from "./ledger.js";
import { DEFAULT_ERROR_CODE, DEFAULT_ERROR_MESSAGE, type Outcome, scriptedOutcome } from "./outcome.js";
import type { RebuildRecord } from "./types.js";

type CompletionRequest = components["schemas"]["CompletionRequest"];

export interface Completion {
  /**
   * Keeps a rebuild (new or restored) and schedules its completion at `completesAt`, if any.
   * `hostname` is its source URL's, when the caller has it already.
   */
  track(record: RebuildRecord, completesAt: number | undefined, hostname?: string): RebuildEntry;
  /** When a rebuild of `hostname` submitted now completes on its own; undefined for a `stall.` host. */
  completesAt(hostname: string): number | undefined;
  /**
   * The control API: ends a running rebuild now (`status` default `success`; for `failed`, omitted
   * error fields get the defaults and `null` leaves them out of the callback). NOT_FOUND for an
   * unknown request, CONFLICT when it is no longer running. Resolves once the first callback
   * attempt has ended and been recorded.
   */
  complete(requestId: string, input: CompletionRequest | undefined): Promise<RebuildRecord>;
}

export function createCompletion({
  clock,
  ledger,
  deliverer,
  delayMs,
}: {
  clock: Clock;
  ledger: RebuildLedger;
  deliverer: Deliverer;
  delayMs: number;
}): Completion {
  const finish = (entry: RebuildEntry, outcome: Outcome): Promise<void> => {
    entry.cancelCompletion?.();
    entry.cancelCompletion = undefined;
    entry.completesAt = undefined;
    // Changed in place, not copied: every reader gets a copy of it (a view, a snapshot, structuredClone),
    // and a completion is on the hot path of a busy mock. New fields follow the existing ones, in
    // this order, as a copy with them appended would have them.
    const finished = entry.record as RebuildRecord & { status: "success" | "failed" };
    finished.completedAt = formatTimestamp(clock.now());
    if (outcome.status === "success") {
      finished.status = "success";
      finished.previewUrl = previewUrlOf(finished.projectId);
    } else {
      finished.status = "failed";
      if (outcome.errorCode !== null) finished.errorCode = outcome.errorCode;
      if (outcome.errorMessage !== null) finished.errorMessage = outcome.errorMessage;
    }
    return deliverer.deliver(finished.partnerId, callbackPayload(finished));
  };

  return {
    track(record, completesAt, hostname) {
      const entry: RebuildEntry = { record, cancelCompletion: undefined, completesAt };
      const outcome =
        record.status === "running"
          ? scriptedOutcome(hostname ?? new URL(record.normalizedSourceUrl).hostname)
          : undefined;
      if (outcome && completesAt !== undefined) {
        // complete() cancels this task, so when it runs the rebuild is still running.
        entry.cancelCompletion = clock.schedule(completesAt, () => finish(entry, outcome));
      }
      ledger.add(entry);
      return entry;
    },

    completesAt: (hostname) => (scriptedOutcome(hostname) ? clock.now() + delayMs : undefined),

    async complete(requestId, input) {
      const entry = ledger.find(requestId);
      if (entry.record.status !== "running") {
        throw new DomainError(
          "CONFLICT",
          `Rebuild ${requestId} is no longer running (${entry.record.status})`,
        );
      }
      // No body ends it as the schema's default status does: `success`.
      const outcome: Outcome =
        input?.status === "failed"
          ? {
              status: "failed",
              errorCode: input.errorCode === undefined ? DEFAULT_ERROR_CODE : input.errorCode,
              errorMessage: input.errorMessage === undefined ? DEFAULT_ERROR_MESSAGE : input.errorMessage,
            }
          : { status: "success" };
      await finish(entry, outcome);
      return structuredClone(entry.record);
    },
  };
}
