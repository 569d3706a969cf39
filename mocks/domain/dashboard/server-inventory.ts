import type { ServerView } from "./types.js";

/**
 * Each team's connected servers, keyed by lower-case GUID. A map per team keeps connection order
 * (insertion order) and O(1) deletion; the stored views are frozen and go into responses as they are.
 */
export class ServerInventory {
  readonly #byTeam = new Map<string, Map<string, ServerView>>();
  readonly #guids = new Set<string>();

  /**
   * Throws on a GUID already connected anywhere: a bug, never input (seeds and snapshots are checked
   * by references.ts first, and `connectServers` picks an unused GUID).
   */
  add(teamId: string, server: ServerView): ServerView {
    const guid = server.guid.toLowerCase();
    if (this.#guids.has(guid)) throw new Error(`Internal: server ${guid} is already connected`);
    const view: ServerView = Object.freeze({
      guid,
      product: server.product,
      address: server.address,
      active: server.active,
    });
    let servers = this.#byTeam.get(teamId);
    if (!servers) {
      servers = new Map();
      this.#byTeam.set(teamId, servers);
    }
    servers.set(guid, view);
    this.#guids.add(guid);
    return view;
  }

  /** Whether a GUID is taken, in any team. */
  has(guid: string): boolean {
    return this.#guids.has(guid.toLowerCase());
  }

  ofTeam(teamId: string): ReadonlyMap<string, ServerView> {
    return this.#byTeam.get(teamId) ?? EMPTY;
  }

  /** Removes the server only from `teamId`'s inventory; false when that team has no such server. */
  remove(teamId: string, guid: string): boolean {
    const key = guid.toLowerCase();
    const removed = this.#byTeam.get(teamId)?.delete(key) ?? false;
    if (removed) this.#guids.delete(key);
    return removed;
  }

  /** Every team's servers, team by team, each in connection order. */
  *all(): Iterable<{ teamId: string; server: ServerView }> {
    for (const [teamId, servers] of this.#byTeam) {
      for (const server of servers.values()) yield { teamId, server };
    }
  }
}

const EMPTY: ReadonlyMap<string, ServerView> = new Map();
