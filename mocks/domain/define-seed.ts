// A typed builder for seeds (issue 23): write what a test is about, and the ids, GUIDs and
// references the schema requires are derived. What it builds is a plain `MockSeed`, checked like
// any other when a world loads it (decisions/044).
import type { components } from "../../src/generated/mock-control.js";
import { defaultDashboardSeed } from "./dashboard/seed.js";
import type { MockSeed } from "./seed.js";

type Schemas = components["schemas"];
type SeedToken = Schemas["SeedToken"];
type TeamServer = Schemas["TeamServer"];

/** What `defineSeed` takes: each field it can derive may be left out. */
export interface SeedDefinition {
  dashboard?: {
    /** A team by its key (its GUID derived), or in full. */
    teams?: readonly (string | { id: string; guid?: string })[];
    /** `id`: the next free one; `team`: the first team (of `teams`, or the default seed's). */
    users?: readonly { email: string; team?: string; id?: number }[];
    /**
     * `user`: a user's id or email (default: the first user, of `users` or the default seed's);
     * `id`: the next free one; `name`: "Token <id>"; `claims`: none (unrestricted);
     * `createdAt`: 2026-01-01T00:00:00+00:00.
     */
    tokens?: readonly (Partial<Omit<SeedToken, "userId" | "secret">> & {
      secret: string;
      user?: number | string;
    })[];
    /** `guid`: derived; `team`: the first team; `product`: "plesk"; `active`: true. */
    servers?: readonly (Partial<Omit<TeamServer, "address">> & { address: string })[];
  };
  /** Partners, as the seed takes them (only `id` is required there already). */
  rebuild?: MockSeed["rebuild"];
}

const SEEDED_AT = "2026-01-01T00:00:00+00:00";

/** A GUID of its own for the n-th derived team or server (prefixes the default seed does not use). */
function derivedGuid(prefix: string, n: number): string {
  return `${prefix}-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
}

/** The next id above every one in `taken`. */
function nextId(taken: Set<number>): number {
  const id = Math.max(0, ...taken) + 1;
  taken.add(id);
  return id;
}

/**
 * A `MockSeed` from a definition that leaves out what can be derived: team and server GUIDs, user
 * and token ids, a user's team, a token's user (by id or email), names and dates. A list left out
 * stays out, so the world takes the default seed's; a half left out is the default. A token whose
 * `user` names an email no user has is a TypeError; every other reference is checked, as for any
 * seed, when a world loads it.
 *
 * ```ts
 * const seed = defineSeed({ dashboard: { servers: [{ address: "https://a.example.com" }] } });
 * ```
 */
export function defineSeed(definition: SeedDefinition): MockSeed {
  const given = definition.dashboard;
  const seed: MockSeed =
    definition.rebuild === undefined ? {} : { rebuild: structuredClone(definition.rebuild) };
  if (given === undefined) return seed;
  const dashboard: NonNullable<MockSeed["dashboard"]> = {};

  const teams = given.teams?.map((team, index) =>
    typeof team === "string"
      ? { id: team, guid: derivedGuid("7ea40000", index + 1) }
      : { id: team.id, guid: team.guid ?? derivedGuid("7ea40000", index + 1) },
  );
  const firstTeam = (teams ?? defaultDashboardSeed.teams)[0]?.id ?? "";
  if (teams) dashboard.teams = teams;

  const userIds = new Set(given.users?.flatMap((user) => (user.id === undefined ? [] : [user.id])));
  const users = given.users?.map((user) => ({
    id: user.id ?? nextId(userIds),
    email: user.email,
    team: user.team ?? firstTeam,
  }));
  if (users) dashboard.users = users;
  const knownUsers = users ?? defaultDashboardSeed.users;

  const userOf = (user: number | string | undefined): number => {
    if (typeof user === "number") return user;
    const found = user === undefined ? knownUsers[0] : knownUsers.find((known) => known.email === user);
    if (!found) throw new TypeError(`defineSeed: no user has the email ${JSON.stringify(user)}`);
    return found.id;
  };
  const tokenIds = new Set(given.tokens?.flatMap((token) => (token.id === undefined ? [] : [token.id])));
  if (given.tokens) {
    dashboard.tokens = given.tokens.map(({ user, ...token }) => {
      const id = token.id ?? nextId(tokenIds);
      return {
        ...token,
        id,
        userId: userOf(user),
        name: token.name ?? `Token ${id}`,
        claims: structuredClone(token.claims ?? []),
        createdAt: token.createdAt ?? SEEDED_AT,
      };
    });
  }
  if (given.servers) {
    dashboard.servers = given.servers.map((server, index) => ({
      ...server,
      guid: server.guid ?? derivedGuid("5e7e0000", index + 1),
      team: server.team ?? firstTeam,
      product: server.product ?? "plesk",
      active: server.active ?? true,
    }));
  }
  seed.dashboard = dashboard;
  return seed;
}
