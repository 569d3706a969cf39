/**
 * A log that keeps its `limit` most recent items: pushing past the limit drops the oldest and
 * counts it, so memory stays bounded however long the mock runs and the state can say what it lost.
 */
export class BoundedLog<T> {
  #items: T[] = [];
  // Items before `head` were dropped; the array is compacted once they outnumber the live ones.
  #head = 0;
  #dropped = 0;

  constructor(readonly limit: number) {}

  get dropped(): number {
    return this.#dropped;
  }

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
    if (this.size > this.limit) {
      this.#head++;
      this.#dropped++;
      if (this.#head * 2 > this.#items.length) {
        this.#items = this.#items.slice(this.#head);
        this.#head = 0;
      }
    }
  }

  /** The kept items, oldest first. */
  items(): T[] {
    return this.#items.slice(this.#head);
  }

  clear(): void {
    this.#items = [];
    this.#head = 0;
    this.#dropped = 0;
  }

  /** Replaces the content (a snapshot); items beyond the limit are dropped and counted too. */
  restore(items: readonly T[], dropped: number): void {
    const excess = Math.max(0, items.length - this.limit);
    this.#items = items.slice(excess);
    this.#head = 0;
    this.#dropped = dropped + excess;
  }
}
