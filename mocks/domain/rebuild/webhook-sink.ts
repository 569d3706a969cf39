import type { components } from "../../../src/generated/mock-control.js";
import type { SinkEntry } from "./types.js";

/** One received request as stored: the body as text (UTF-8 decoded), parsed only when read. */
export type StoredSinkEntry = components["schemas"]["StoredSinkEntry"];

/**
 * What the built-in webhook sink keeps. It accepts any partner id that can exist, so a per-partner
 * cap alone would not bound memory: the totals do. Past any of them the oldest entries go (of that
 * partner for the per-partner cap, of any partner for the totals) and are counted.
 */
export const SINK_LIMITS = {
  /** Most recent entries kept per partner. */
  perPartner: 100,
  /** Most recent entries kept across every partner. */
  entries: 1000,
  /** Size of the bodies and headers kept across every partner, in characters (16 Mi). */
  characters: 16 * 1024 * 1024,
} as const;

export interface SinkLimits {
  perPartner: number;
  entries: number;
  characters: number;
}

const DROPPED: StoredSinkEntry = { headers: {}, text: null, at: "" };

interface Slot {
  partnerId: number;
  entry: StoredSinkEntry;
  characters: number;
  /** False once dropped by the per-partner cap (it stays in the global queue until it surfaces). */
  kept: boolean;
}

export interface WebhookSink {
  receive(partnerId: number, entry: StoredSinkEntry): void;
  /** What the partner's sink holds, oldest first; bodies parsed as JSON when they are JSON. */
  list(partnerId: number): SinkEntry[];
  /** Every partner's entries (for the state view). */
  view(): Record<string, SinkEntry[]>;
  /** Every partner's entries as stored (for snapshots), partner by partner, oldest first. */
  stored(): Record<string, StoredSinkEntry[]>;
  /** Entries dropped so far to stay within `SINK_LIMITS`. */
  readonly dropped: number;
  clear(): void;
  /** Replaces everything (a snapshot), in the given order, applying the limits as if received. */
  restore(entries: Readonly<Record<string, readonly StoredSinkEntry[]>>, dropped: number): void;
}

export function createWebhookSink(limits: SinkLimits = SINK_LIMITS): WebhookSink {
  let byPartner = new Map<number, Slot[]>();
  // Every kept slot in arrival order, from `head` on; slots dropped per partner are skipped.
  let queue: Slot[] = [];
  let head = 0;
  let entries = 0;
  let characters = 0;
  let dropped = 0;

  const drop = (slot: Slot) => {
    slot.kept = false;
    // The slot may stay queued a while; what it held must not.
    slot.entry = DROPPED;
    entries--;
    characters -= slot.characters;
    dropped++;
  };

  const dropOldest = () => {
    while (head < queue.length) {
      const slot = queue[head++] as Slot;
      if (!slot.kept) continue;
      // The oldest overall is also its partner's oldest.
      const own = byPartner.get(slot.partnerId);
      own?.shift();
      if (own?.length === 0) byPartner.delete(slot.partnerId);
      drop(slot);
      return;
    }
  };

  // Slots before `head` are gone, and slots dropped by the per-partner cap stay queued until they
  // surface; once either outnumbers the kept ones the queue is rebuilt, so it never holds (and
  // keeps alive) more than about twice what is kept.
  const compact = () => {
    if (head <= 2 * entries + 64 && queue.length - head <= 2 * entries + 64) return;
    queue = queue.slice(head).filter((slot) => slot.kept);
    head = 0;
  };

  const receive = (partnerId: number, entry: StoredSinkEntry) => {
    const slot: Slot = { partnerId, entry, characters: sizeOf(entry), kept: true };
    const own = byPartner.get(partnerId) ?? [];
    own.push(slot);
    byPartner.set(partnerId, own);
    queue.push(slot);
    entries++;
    characters += slot.characters;
    if (own.length > limits.perPartner) drop(own.shift() as Slot);
    while (entries > limits.entries || characters > limits.characters) dropOldest();
    compact();
  };

  const clear = () => {
    byPartner = new Map();
    queue = [];
    head = 0;
    entries = 0;
    characters = 0;
    dropped = 0;
  };

  const sorted = () => [...byPartner].sort(([a], [b]) => a - b);

  return {
    receive,
    list: (partnerId) => (byPartner.get(partnerId) ?? []).map((slot) => viewOf(slot.entry)),
    view: () =>
      Object.fromEntries(sorted().map(([id, slots]) => [String(id), slots.map((s) => viewOf(s.entry))])),
    stored: () =>
      Object.fromEntries(
        sorted().map(([id, slots]) => [String(id), slots.map((s) => structuredClone(s.entry))]),
      ),
    get dropped() {
      return dropped;
    },
    clear,
    restore(given, droppedBefore) {
      clear();
      for (const [id, list] of Object.entries(given)) {
        for (const entry of list) receive(Number(id), structuredClone(entry));
      }
      dropped += droppedBefore;
    },
  };
}

function sizeOf(entry: StoredSinkEntry): number {
  let size = entry.text?.length ?? 0;
  for (const name of Object.keys(entry.headers)) size += name.length + (entry.headers[name]?.length ?? 0);
  return size;
}

function viewOf({ headers, text, at }: StoredSinkEntry): SinkEntry {
  return { headers: { ...headers }, body: parsedBody(text), at };
}

/** JSON when the text is JSON, the text otherwise; null for an empty body. */
function parsedBody(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
