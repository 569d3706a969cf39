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

// Cancelled entries stay in the heap until they surface; past this many, and once they outnumber
// the live ones, the heap is rebuilt without them so memory stays proportional to live tasks.
const COMPACT_AFTER = 64;

/**
 * The clock's pending tasks as a binary min-heap on (at, seq): scheduling, cancelling and taking
 * the earliest cost O(log n), so a server with thousands of running rebuilds stays fast.
 */
export class TaskQueue {
  #heap: Entry[] = [];
  #live = 0;

  get size(): number {
    return this.#live;
  }

  /** Adds a task; the returned function cancels it (a no-op once it was taken or the queue cleared). */
  push(task: QueuedTask): () => void {
    const entry: Entry = { task, queued: true };
    this.#heap.push(entry);
    this.#up(this.#heap.length - 1);
    this.#live++;
    return () => {
      if (!entry.queued) return;
      entry.queued = false;
      this.#live--;
      if (this.#heap.length > COMPACT_AFTER && this.#live * 2 < this.#heap.length) this.#compact();
    };
  }

  /** The earliest task still queued, left in place. */
  peek(): QueuedTask | undefined {
    this.#dropTaken();
    return this.#heap[0]?.task;
  }

  /** Removes and returns the earliest task still queued. */
  take(): QueuedTask | undefined {
    this.#dropTaken();
    const top = this.#heap[0];
    if (!top) return undefined;
    top.queued = false;
    this.#live--;
    this.#removeTop();
    return top.task;
  }

  clear(): void {
    for (const entry of this.#heap) entry.queued = false;
    this.#heap = [];
    this.#live = 0;
  }

  #dropTaken(): void {
    while (this.#heap.length > 0 && !this.#heap[0]?.queued) this.#removeTop();
  }

  #removeTop(): void {
    const last = this.#heap.pop();
    if (last && this.#heap.length > 0) {
      this.#heap[0] = last;
      this.#down(0);
    }
  }

  #compact(): void {
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
