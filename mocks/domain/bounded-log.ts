/**
 * A log that keeps its `limit` most recent items: pushing past the limit drops the oldest and
 * counts it, so memory stays bounded however long the mock runs and the state can say what it lost.
 */
export interface BoundedLog<T> {
  /** Items dropped so far (to stay within the limit, or before a restored snapshot). */
  readonly dropped: number;
  readonly size: number;
  push(item: T): void;
  /** The kept items, oldest first. */
  items(): T[];
  clear(): void;
  /** Replaces the content (a snapshot); items beyond the limit are dropped and counted too. */
  restore(items: readonly T[], dropped: number): void;
}

export function createBoundedLog<T>(limit: number): BoundedLog<T> {
  let items: T[] = [];
  // Items before `head` were dropped; the array is compacted once they outnumber the live ones.
  let head = 0;
  let dropped = 0;
  return {
    get dropped() {
      return dropped;
    },
    get size() {
      return items.length - head;
    },
    push(item) {
      items.push(item);
      if (items.length - head > limit) {
        head++;
        dropped++;
        if (head * 2 > items.length) {
          items = items.slice(head);
          head = 0;
        }
      }
    },
    items: () => items.slice(head),
    clear() {
      items = [];
      head = 0;
      dropped = 0;
    },
    restore(given, droppedBefore) {
      const excess = Math.max(0, given.length - limit);
      items = given.slice(excess);
      head = 0;
      dropped = droppedBefore + excess;
    },
  };
}
