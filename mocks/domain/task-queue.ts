/** A task the clock will run at `at`; `seq` orders tasks due at the same time by when they were scheduled. */
export interface QueuedTask {
  readonly at: number;
  readonly seq: number;
  readonly run: () => void | Promise<void>;
}

interface Entry {
  task: QueuedTask;
  /** False once the task was taken or cancelled; such entries are skipped, then dropped. */
  queued: boolean;
}

const earlier = (a: QueuedTask, b: QueuedTask) => a.at < b.at || (a.at === b.at && a.seq < b.seq);

// Cancelled entries stay queued until they surface; past this many, and once they outnumber the
// live ones, the queue is rebuilt without them so memory stays proportional to live tasks.
const COMPACT_AFTER = 64;

/**
 * The clock's pending tasks in (at, seq) order. Most tasks arrive in that order already (every
 * rebuild completes the same delay after its submission), so those wait in a plain list, taken from
 * its front in O(1); a task due before the list's last one goes into a binary min-heap (O(log n)).
 * The earliest task is the earlier of the list's front and the heap's top.
 */
export class TaskQueue {
  #heap: Entry[] = [];
  /** In (at, seq) order from `#head` on; entries before `#head` are gone. */
  #list: Entry[] = [];
  #head = 0;
  #live = 0;

  get size(): number {
    return this.#live;
  }

  /** Adds a task; the returned function cancels it (a no-op once it was taken or the queue cleared). */
  push(task: QueuedTask): () => void {
    const entry: Entry = { task, queued: true };
    const last = this.#list[this.#list.length - 1];
    if (this.#head === this.#list.length || (last !== undefined && !earlier(task, last.task))) {
      this.#list.push(entry);
    } else {
      this.#heap.push(entry);
      this.#up(this.#heap.length - 1);
    }
    this.#live++;
    return () => {
      if (!entry.queued) return;
      entry.queued = false;
      this.#live--;
      if (this.#stored() > COMPACT_AFTER && this.#live * 2 < this.#stored()) this.#compact();
    };
  }

  /** The earliest task still queued, left in place. */
  peek(): QueuedTask | undefined {
    return this.#first()?.task;
  }

  /** Removes and returns the earliest task still queued. */
  take(): QueuedTask | undefined {
    const first = this.#first();
    if (!first) return undefined;
    first.queued = false;
    this.#live--;
    if (first === this.#list[this.#head]) this.#advance();
    else this.#removeTop();
    return first.task;
  }

  clear(): void {
    for (const entry of this.#heap) entry.queued = false;
    for (let i = this.#head; i < this.#list.length; i++) (this.#list[i] as Entry).queued = false;
    this.#heap = [];
    this.#list = [];
    this.#head = 0;
    this.#live = 0;
  }

  /** The earliest entry still queued, with the taken and cancelled ones before it dropped. */
  #first(): Entry | undefined {
    while (this.#heap.length > 0 && !this.#heap[0]?.queued) this.#removeTop();
    while (this.#head < this.#list.length && !this.#list[this.#head]?.queued) this.#advance();
    const top = this.#heap[0];
    const front = this.#list[this.#head];
    if (!top) return front;
    if (!front) return top;
    return earlier(front.task, top.task) ? front : top;
  }

  #stored(): number {
    return this.#heap.length + this.#list.length - this.#head;
  }

  /** Drops the list's front; the gone prefix is cut off once it outweighs the rest (amortised O(1)). */
  #advance(): void {
    this.#head++;
    if (this.#head === this.#list.length) {
      this.#list = [];
      this.#head = 0;
    } else if (this.#head > COMPACT_AFTER && this.#head * 2 > this.#list.length) {
      this.#list = this.#list.slice(this.#head);
      this.#head = 0;
    }
  }

  #removeTop(): void {
    const last = this.#heap.pop();
    if (last && this.#heap.length > 0) {
      this.#heap[0] = last;
      this.#down(0);
    }
  }

  #compact(): void {
    this.#list = this.#list.slice(this.#head).filter((entry) => entry.queued);
    this.#head = 0;
    this.#heap = this.#heap.filter((entry) => entry.queued);
    for (let i = (this.#heap.length >> 1) - 1; i >= 0; i--) this.#down(i);
  }

  #up(index: number): void {
    const heap = this.#heap;
    const entry = heap[index] as Entry;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = heap[parentIndex] as Entry;
      if (!earlier(entry.task, parent.task)) break;
      heap[index] = parent;
      index = parentIndex;
    }
    heap[index] = entry;
  }

  #down(index: number): void {
    const heap = this.#heap;
    const entry = heap[index] as Entry;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child =
        right < heap.length && earlier((heap[right] as Entry).task, (heap[left] as Entry).task)
          ? right
          : left;
      const childEntry = heap[child] as Entry;
      if (!earlier(childEntry.task, entry.task)) break;
      heap[index] = childEntry;
      index = child;
    }
    heap[index] = entry;
  }
}
