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
export class RebuildLedger {
  readonly #byRequest = new Map<string, RebuildEntry>();
  // By partner, then by normalised URL: no key string is made (and kept) for every rebuild.
  readonly #byUrl = new Map<number, Map<string, RebuildEntry>>();
  readonly #byProject = new Map<string, RebuildEntry>();

  add(entry: RebuildEntry): void {
    const { record } = entry;
    this.#byRequest.set(record.requestId, entry);
    this.#byProject.set(record.projectId, entry);
    let urls = this.#byUrl.get(record.partnerId);
    if (!urls) {
      urls = new Map();
      this.#byUrl.set(record.partnerId, urls);
    }
    urls.set(record.normalizedSourceUrl, entry);
  }

  /** NOT_FOUND for an unknown request id. */
  find(requestId: string): RebuildEntry {
    const entry = this.#byRequest.get(requestId);
    if (!entry) throw new DomainError("NOT_FOUND", `No rebuild request ${requestId}`);
    return entry;
  }

  forUrl(partnerId: number, normalizedUrl: string): RebuildEntry | undefined {
    return this.#byUrl.get(partnerId)?.get(normalizedUrl);
  }

  forProject(projectId: string): RebuildEntry | undefined {
    return this.#byProject.get(projectId);
  }

  /** In submission order. */
  entries(): IterableIterator<RebuildEntry> {
    return this.#byRequest.values();
  }

  /** Forgets everything, cancelling scheduled completions. */
  clear(): void {
    for (const entry of this.#byRequest.values()) entry.cancelCompletion?.();
    this.#byRequest.clear();
    this.#byUrl.clear();
    this.#byProject.clear();
  }
}
