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
  // Every rebuild in submission order. The indexes by id are brought up to date when one is asked
  // (a status, a completion, a magic link): a busy mock takes rebuilds by the thousand and is asked
  // by id far less, and each index entry is one more Map insert per rebuild (decisions/051). Ids are
  // unique (random GUIDs; a snapshot's are checked), so an index never loses an entry.
  let all: RebuildEntry[] = [];
  let indexed = 0;
  const byRequest = new Map<string, RebuildEntry>();
  const byProject = new Map<string, RebuildEntry>();
  const catchUp = () => {
    for (; indexed < all.length; indexed++) {
      const entry = all[indexed] as RebuildEntry;
      byRequest.set(entry.record.requestId, entry);
      byProject.set(entry.record.projectId, entry);
    }
  };
  // By partner, then by normalised URL: no key string is made (and kept) for every rebuild. Asked on
  // every submission, so kept up to date on each.
  const byUrl = new Map<number, Map<string, RebuildEntry>>();
  return {
    add(entry) {
      const { record } = entry;
      all.push(entry);
      let urls = byUrl.get(record.partnerId);
      if (!urls) {
        urls = new Map();
        byUrl.set(record.partnerId, urls);
      }
      urls.set(record.normalizedSourceUrl, entry);
    },
    find(requestId) {
      catchUp();
      const entry = byRequest.get(requestId);
      if (!entry) throw new DomainError("NOT_FOUND", `No rebuild request ${requestId}`);
      return entry;
    },
    forUrl: (partnerId, normalizedUrl) => byUrl.get(partnerId)?.get(normalizedUrl),
    forProject(projectId) {
      catchUp();
      return byProject.get(projectId);
    },
    entries: () => all.values(),
    clear() {
      for (const entry of all) entry.cancelCompletion?.();
      all = [];
      indexed = 0;
      byRequest.clear();
      byUrl.clear();
      byProject.clear();
    },
  };
}
