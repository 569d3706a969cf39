/**
 * Remembers which deliveries were handled, so a repeated delivery is acknowledged without calling
 * `onCompleted` again. Keys are `<status>:<request_id>`. Either method may be sync or async; share
 * one store (e.g. backed by Redis) between processes when several receive the same callbacks.
 */
export interface DeliveryStore {
  has(key: string): boolean | Promise<boolean>;
  add(key: string): void | Promise<void>;
}

/**
 * An in-memory store that keeps the `maxKeys` most recently used keys. Duplicates of one delivery
 * arrive within its retry window (about three minutes: five attempts of at most 10 s, 150 s of
 * backoff), so the default of 10,000 only forgets a key early for a receiver handling more than
 * 10,000 completions in that window, while never growing without bound.
 */
export function createMemoryDeliveryStore(maxKeys = 10_000): DeliveryStore {
  if (!Number.isSafeInteger(maxKeys) || maxKeys < 1) {
    throw new TypeError("maxKeys must be a positive integer");
  }
  // A Map iterates in insertion order, so re-inserting on use makes its first key the least recent.
  const keys = new Map<string, true>();
  const touch = (key: string) => {
    keys.delete(key);
    keys.set(key, true);
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
        if (keys.size <= maxKeys) break;
        keys.delete(oldest);
      }
    },
  };
}
