import { DomainError } from "../errors.js";
import type { RebuildRecord } from "./types.js";

/** A rebuild the domain keeps, with its scheduled completion (if any). */
export interface RebuildEntry {
  record: RebuildRecord;
  /** Cancels the scheduled completion; undefined once completed, or for a stalled rebuild. */
  cancelCompletion: (() => void) | undefined;
  /** When the scheduled completion falls due. */
  completesAt: number | undefined;
}

/** Every rebuild, by request id, by project id, and by partner and normalised URL (the idempotency key). */
export interface RebuildLedger {
  add(entry: RebuildEntry): void;
  /** NOT_FOUND for an unknown request id. */
  find(requestId: string): RebuildEntry;
  forUrl(partnerId: number, normalizedUrl: string): RebuildEntry | undefined;
  forProject(projectId: string): RebuildEntry | undefined;
  /** In submission order. */
  entries(): IterableIterator<RebuildEntry>;
  /** Forgets everything, cancelling scheduled completions. */
  clear(): void;
}

export function createRebuildLedger(): RebuildLedger {
  const byRequest = new Map<string, RebuildEntry>();
  // By partner, then by normalised URL: no key string is made (and kept) for every rebuild.
  const byUrl = new Map<number, Map<string, RebuildEntry>>();
  const byProject = new Map<string, RebuildEntry>();
  return {
    add(entry) {
      const { record } = entry;
      byRequest.set(record.requestId, entry);
      byProject.set(record.projectId, entry);
      let urls = byUrl.get(record.partnerId);
      if (!urls) {
        urls = new Map();
        byUrl.set(record.partnerId, urls);
      }
      urls.set(record.normalizedSourceUrl, entry);
    },
    find(requestId) {
      const entry = byRequest.get(requestId);
      if (!entry) throw new DomainError("NOT_FOUND", `No rebuild request ${requestId}`);
      return entry;
    },
    forUrl: (partnerId, normalizedUrl) => byUrl.get(partnerId)?.get(normalizedUrl),
    forProject: (projectId) => byProject.get(projectId),
    entries: () => byRequest.values(),
    clear() {
      for (const entry of byRequest.values()) entry.cancelCompletion?.();
      byRequest.clear();
      byUrl.clear();
      byProject.clear();
    },
  };
}
