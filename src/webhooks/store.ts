/**
 * Remembers which deliveries were handled, so a repeated delivery is acknowledged without calling
 * `onCompleted` again. Keys are `<status>:<request_id>`, or `<status>#sha256:<hex digest>` for a
 * `request_id` longer than 100 characters, so no key is longer than about 120 characters (and the two
 * kinds never meet: no status holds `:` or `#`).
 * Either method may be sync or async; share one store (e.g. backed by Redis) between processes when
 * several receive the same callbacks.
 */
export interface DeliveryStore {
  /** Whether a delivery with this key was already handled. */
  has(key: string): boolean | Promise<boolean>;
  /** Remembers that the delivery with this key was handled (after `onCompleted` succeeded). */
  add(key: string): void | Promise<void>;
}

/** Limits of `createMemoryDeliveryStore`. */
export interface MemoryDeliveryStoreOptions {
  /** Most keys kept. Default 10,000. */
  readonly maxKeys?: number;
  /**
   * Most memory the keys may take, in bytes (2 per UTF-16 code unit plus 64 per entry, an upper
   * estimate). Default 2 MiB (2,097,152).
   */
  readonly maxBytes?: number;
}

const ENTRY_OVERHEAD_BYTES = 64;

/**
 * An in-memory store that keeps the most recently used keys, within `maxKeys` and `maxBytes`.
 * Duplicates of one delivery arrive within its retry window (about three minutes: five attempts of
 * at most 10 s, 150 s of backoff), so the defaults only forget a key early for a receiver handling
 * more than 10,000 completions in that window, while never growing without bound. A number is
 * read as `maxKeys`.
 */
export function createMemoryDeliveryStore(options: MemoryDeliveryStoreOptions | number = {}): DeliveryStore {
  const { maxKeys = 10_000, maxBytes = 2 * 1024 * 1024 } =
    typeof options === "number" ? { maxKeys: options } : options;
  if (!Number.isSafeInteger(maxKeys) || maxKeys < 1) {
    throw new TypeError("maxKeys must be a positive integer");
  }
  if (!(typeof maxBytes === "number" && maxBytes >= 1)) {
    throw new TypeError("maxBytes must be a number of bytes, 1 or more");
  }
  // A Map iterates in insertion order, so re-inserting on use makes its first key the least recent.
  const keys = new Map<string, true>();
  let bytes = 0;
  const size = (key: string) => key.length * 2 + ENTRY_OVERHEAD_BYTES;
  const touch = (key: string) => {
    if (keys.delete(key)) bytes -= size(key);
    keys.set(key, true);
    bytes += size(key);
  };
  return {
    has(key) {
      if (!keys.has(key)) return false;
      touch(key);
      return true;
    },
    add(key) {
      touch(key);
      for (const oldest of keys.keys()) {
        if (keys.size <= maxKeys && bytes <= maxBytes) break;
        keys.delete(oldest);
        bytes -= size(oldest);
      }
    },
  };
}
