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
  /** In (at, seq) order from `head` on; entries before `head` are gone. */
  let list: Entry[] = [];
  let head = 0;
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

  /** Drops the list's front; the gone prefix is cut off once it outweighs the rest (amortised O(1)). */
  const advance = (): void => {
    head++;
    if (head === list.length) {
      list = [];
      head = 0;
    } else if (head > COMPACT_AFTER && head * 2 > list.length) {
      list = list.slice(head);
      head = 0;
    }
  };

  const stored = (): number => heap.length + list.length - head;

  const compact = (): void => {
    list = list.slice(head).filter((entry) => entry.queued);
    head = 0;
    heap = heap.filter((entry) => entry.queued);
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  };

  /** The earliest entry still queued, with the taken and cancelled ones before it dropped. */
  const first = (): Entry | undefined => {
    while (heap.length > 0 && !heap[0]?.queued) removeTop();
    while (head < list.length && !list[head]?.queued) advance();
    const top = heap[0];
    const front = list[head];
    if (!top) return front;
    if (!front) return top;
    return earlier(front.task, top.task) ? front : top;
  };

  return {
    get size() {
      return live;
    },
    push(task) {
      const entry: Entry = { task, queued: true };
      const last = list[list.length - 1];
      if (head === list.length || (last !== undefined && !earlier(task, last.task))) {
        list.push(entry);
      } else {
        heap.push(entry);
        up(heap.length - 1);
      }
      live++;
      return () => {
        if (!entry.queued) return;
        entry.queued = false;
        live--;
        if (stored() > COMPACT_AFTER && live * 2 < stored()) compact();
      };
    },
    peek() {
      return first()?.task;
    },
    take() {
      const entry = first();
      if (!entry) return undefined;
      entry.queued = false;
      live--;
      if (entry === list[head]) advance();
      else removeTop();
      return entry.task;
    },
    clear() {
      for (const entry of heap) entry.queued = false;
      for (let i = head; i < list.length; i++) (list[i] as Entry).queued = false;
      heap = [];
      list = [];
      head = 0;
      live = 0;
    },
  };
}
