import type { ServerView } from "./types.js";

/**
 * Each team's connected servers, keyed by lower-case GUID. A map per team keeps connection order
 * (insertion order) and O(1) deletion; the stored views are frozen and go into responses as they are.
 */
export interface ServerInventory {
  /**
   * Throws on a GUID already connected anywhere: a bug, never input (seeds and snapshots are checked
   * by references.ts first, and `connectServers` picks an unused GUID).
   */
  add(teamId: string, server: ServerView): ServerView;
  /** Whether a GUID is taken, in any team. */
  has(guid: string): boolean;
  ofTeam(teamId: string): ReadonlyMap<string, ServerView>;
  /** Removes the server only from `teamId`'s inventory; false when that team has no such server. */
  remove(teamId: string, guid: string): boolean;
  /** Every team's servers, team by team, each in connection order. */
  all(): Iterable<{ teamId: string; server: ServerView }>;
  /** Counts the changes (each server added or removed): a page made at one count holds until the next. */
  readonly changes: number;
}

export function createServerInventory(): ServerInventory {
  const byTeam = new Map<string, Map<string, ServerView>>();
  const guids = new Set<string>();
  let changes = 0;
  return {
    get changes() {
      return changes;
    },
    add(teamId, server) {
      const guid = server.guid.toLowerCase();
      if (guids.has(guid)) throw new Error(`Internal: server ${guid} is already connected`);
      const view: ServerView = Object.freeze({
        guid,
        product: server.product,
        address: server.address,
        active: server.active,
      });
      let servers = byTeam.get(teamId);
      if (!servers) {
        servers = new Map();
        byTeam.set(teamId, servers);
      }
      servers.set(guid, view);
      guids.add(guid);
      changes++;
      return view;
    },
    has: (guid) => guids.has(guid.toLowerCase()),
    ofTeam: (teamId) => byTeam.get(teamId) ?? EMPTY,
    remove(teamId, guid) {
      const key = guid.toLowerCase();
      const removed = byTeam.get(teamId)?.delete(key) ?? false;
      if (removed) {
        guids.delete(key);
        changes++;
      }
      return removed;
    },
    *all() {
      for (const [teamId, servers] of byTeam) {
        for (const server of servers.values()) yield { teamId, server };
      }
    },
  };
}

const EMPTY: ReadonlyMap<string, ServerView> = new Map();
