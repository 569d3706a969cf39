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
export interface TaskQueue {
  /** How many tasks are queued (neither taken nor cancelled). */
  readonly size: number;
  /** Adds a task; the returned function cancels it (a no-op once it was taken or the queue cleared). */
  push(task: QueuedTask): () => void;
  /** The earliest task still queued, left in place. */
  peek(): QueuedTask | undefined;
  /** Removes and returns the earliest task still queued. */
  take(): QueuedTask | undefined;
  clear(): void;
}

export function createTaskQueue(): TaskQueue {
  let heap: Entry[] = [];
  let live = 0;

  const up = (index: number): void => {
    const entry = heap[index] as Entry;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = heap[parentIndex] as Entry;
      if (!earlier(entry.task, parent.task)) break;
      heap[index] = parent;
      index = parentIndex;
    }
    heap[index] = entry;
  };

  const down = (index: number): void => {
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
  };

  const removeTop = (): void => {
    const last = heap.pop();
    if (last && heap.length > 0) {
      heap[0] = last;
      down(0);
    }
  };

  const dropTaken = (): void => {
    while (heap.length > 0 && !heap[0]?.queued) removeTop();
  };

  const compact = (): void => {
    heap = heap.filter((entry) => entry.queued);
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  };

  return {
    get size() {
      return live;
    },
    push(task) {
      const entry: Entry = { task, queued: true };
      heap.push(entry);
      up(heap.length - 1);
      live++;
      return () => {
        if (!entry.queued) return;
        entry.queued = false;
        live--;
        if (heap.length > COMPACT_AFTER && live * 2 < heap.length) compact();
      };
    },
    peek() {
      dropTaken();
      return heap[0]?.task;
    },
    take() {
      dropTaken();
      const top = heap[0];
      if (!top) return undefined;
      top.queued = false;
      live--;
      removeTop();
      return top.task;
    },
    clear() {
      for (const entry of heap) entry.queued = false;
      heap = [];
      live = 0;
    },
  };
}
