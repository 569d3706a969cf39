import { createNameSearch, type NameSearch } from "./name-search.js";
import type { Claim } from "./types.js";

export interface TokenRecord {
  readonly id: number;
  readonly userId: number;
  readonly name: string;
  /** Kept so the list filter does not lower-case every name on every request. */
  readonly nameLower: string;
  readonly claims: readonly Claim[];
  readonly createdAt: number;
  readonly expireAt: number | null;
  lastUsedAt: number | null;
  /** SHA-256 of the secret, hex; the secret itself is never stored. */
  readonly secretHash: string;
}

/**
 * Every API token, indexed for the three hot lookups: by secret hash (each request), by id, and by
 * owner (lists). Records go in in ascending id order, so each map's insertion order is id order and
 * lists never sort.
 */
export interface TokenStore {
  /**
   * Throws on an id out of order or a reused secret: a bug, never input (seeds and snapshots are
   * checked by references.ts and loaded by ascending id; new tokens take `nextId()` and a fresh secret).
   */
  insert(record: TokenRecord): void;
  /** Ids are never reused, deleted ones included. */
  nextId(): number;
  /** Makes `nextId()` at least `id` (a snapshot remembers ids of deleted tokens). */
  reserveUntil(id: number): void;
  findBySecretHash(secretHash: string): TokenRecord | undefined;
  /** The token only if `userId` owns it: another user's token is as good as missing. */
  findOwned(userId: number, id: number): TokenRecord | undefined;
  /** A user's tokens by id, ascending. */
  ownedBy(userId: number): ReadonlyMap<number, TokenRecord>;
  /** A user's tokens whose lower-cased name contains `needle` (lower-cased), by id ascending. */
  ownedMatching(userId: number, needle: string): TokenRecord[];
  remove(record: TokenRecord): void;
  all(): Iterable<TokenRecord>;
}

export function createTokenStore(): TokenStore {
  const byHash = new Map<string, TokenRecord>();
  const byId = new Map<number, TokenRecord>();
  const byUser = new Map<number, OwnedTokens>();
  let highestId = 0;
  return {
    insert(record) {
      if (!Number.isSafeInteger(record.id) || record.id <= highestId) {
        throw new Error(`Internal: token id ${record.id} is not above ${highestId}`);
      }
      if (byHash.has(record.secretHash))
        throw new Error(`Internal: token ${record.id} reuses another token's secret`);
      highestId = record.id;
      byHash.set(record.secretHash, record);
      byId.set(record.id, record);
      let owned = byUser.get(record.userId);
      if (!owned) {
        owned = { byId: new Map(), search: undefined };
        byUser.set(record.userId, owned);
      }
      owned.byId.set(record.id, record);
      owned.search?.append(record);
    },
    nextId: () => highestId + 1,
    reserveUntil(id) {
      highestId = Math.max(highestId, id - 1);
    },
    findBySecretHash: (secretHash) => byHash.get(secretHash),
    findOwned(userId, id) {
      const record = byId.get(id);
      return record?.userId === userId ? record : undefined;
    },
    ownedBy: (userId) => byUser.get(userId)?.byId ?? EMPTY,
    ownedMatching(userId, needle) {
      const owned = byUser.get(userId);
      if (!owned) return [];
      if (!owned.search) {
        owned.search = createNameSearch();
        for (const record of owned.byId.values()) owned.search.append(record);
      }
      return owned.search.matching(needle);
    },
    remove(record) {
      byHash.delete(record.secretHash);
      byId.delete(record.id);
      const owned = byUser.get(record.userId);
      if (owned?.byId.delete(record.id)) owned.search = undefined;
    },
    all: () => byId.values(),
  };
}

interface OwnedTokens {
  readonly byId: Map<number, TokenRecord>;
  /** Built on the first filtered list, extended on insert, dropped on delete. */
  search: NameSearch<TokenRecord> | undefined;
}

const EMPTY: ReadonlyMap<number, TokenRecord> = new Map();
