// The dashboard half of a world snapshot. Tokens are kept as the hashes of their secrets: a
// snapshot never holds a secret, and a restored token still answers to its secret. The values are
// checked by the contract's schema (openapi/mock-control.yaml, `DashboardSnapshot`); references and
// duplicates when the stores are built.
import { parseDateTime } from "../../../src/core/formats.js";
import type { components } from "../../../src/generated/mock-control.js";
import { formatInstant } from "../timestamp.js";
import { duplicateClaims, makeClaim } from "./claims.js";
import type { ServerInventory } from "./server-inventory.js";
import { TeamDirectory } from "./team-directory.js";
import type { TokenStore } from "./token-store.js";

/** The dashboard half of a world snapshot, as JSON. Times are RFC 3339 with milliseconds. */
export type DashboardSnapshot = components["schemas"]["DashboardSnapshot"];

/** The dashboard's stores, as `createDashboardDomain` builds them from a seed or a snapshot. */
export interface DashboardStores {
  directory: TeamDirectory;
  servers: ServerInventory;
  tokens: TokenStore;
}

export function dashboardSnapshotOf({ directory, servers, tokens }: DashboardStores): DashboardSnapshot {
  const instant = (ms: number | null) => (ms === null ? null : formatInstant(ms));
  return {
    teams: directory.teams(),
    users: Array.from(directory.users(), (user) => ({ id: user.id, email: user.email, team: user.teamId })),
    tokens: Array.from(tokens.all(), (record) => ({
      id: record.id,
      userId: record.userId,
      name: record.name,
      secretHash: record.secretHash,
      claims: structuredClone([...record.claims]),
      createdAt: formatInstant(record.createdAt),
      expireAt: instant(record.expireAt),
      lastUsedAt: instant(record.lastUsedAt),
    })),
    nextTokenId: tokens.nextId(),
    servers: Array.from(servers.all(), ({ teamId, server }) => ({ ...server, team: teamId })),
    invitations: {
      log: directory.outbox().map((invitation) => ({
        email: invitation.email,
        team: invitation.teamId,
        invitedByUserId: invitation.invitedByUserId,
        sentAt: formatInstant(invitation.sentAt),
      })),
      dropped: directory.outboxDropped(),
      invitedTeams: directory.invitedTeams().map(([email, team]) => ({ email, team })),
    },
  };
}

/**
 * The stores a checked snapshot describes. Throws an Error naming the first broken reference or
 * duplicate (a token of an unknown user, a GUID given twice, ...), as loading a seed does.
 */
export function storesFromSnapshot(
  snapshot: DashboardSnapshot,
  empty: { servers: ServerInventory; tokens: TokenStore },
): DashboardStores {
  const directory = new TeamDirectory(snapshot.teams, snapshot.users);
  const { servers, tokens } = empty;
  for (const { team, guid, product, address, active } of snapshot.servers) {
    if (!directory.hasTeam(team)) throw new Error(`server ${guid} is in unknown team ${team}`);
    servers.add(team, { guid, product, address, active });
  }
  const at = (text: string | null) => (text === null ? null : parseDateTime(text));
  for (const token of [...snapshot.tokens].sort((a, b) => a.id - b.id)) {
    if (!directory.findUser(token.userId)) {
      throw new Error(`token ${token.id} belongs to unknown user ${token.userId}`);
    }
    const duplicate = duplicateClaims(token.claims, "claims")[0];
    if (duplicate) throw new Error(`token ${token.id}: ${duplicate.path} ${duplicate.message}`);
    const name = token.name.trim();
    tokens.insert({
      id: token.id,
      userId: token.userId,
      name,
      nameLower: name.toLowerCase(),
      claims: Object.freeze(token.claims.map(makeClaim)),
      createdAt: parseDateTime(token.createdAt),
      expireAt: at(token.expireAt ?? null),
      lastUsedAt: at(token.lastUsedAt ?? null),
      secretHash: token.secretHash,
    });
  }
  if (snapshot.nextTokenId < tokens.nextId()) {
    throw new Error(`nextTokenId ${snapshot.nextTokenId} is not above every token id`);
  }
  tokens.reserveUntil(snapshot.nextTokenId);
  const { log, dropped, invitedTeams } = snapshot.invitations;
  for (const invitation of log) {
    if (!directory.hasTeam(invitation.team)) {
      throw new Error(`an invitation of ${invitation.email} is for unknown team ${invitation.team}`);
    }
  }
  for (const invited of invitedTeams) {
    if (!directory.hasTeam(invited.team)) {
      throw new Error(`invited email ${invited.email} resolves to unknown team ${invited.team}`);
    }
  }
  directory.restoreInvitations(
    log.map((invitation) => ({
      email: invitation.email,
      teamId: invitation.team,
      invitedByUserId: invitation.invitedByUserId,
      sentAt: parseDateTime(invitation.sentAt),
    })),
    dropped,
    invitedTeams.map((invited) => [invited.email, invited.team] as const),
  );
  return { directory, servers, tokens };
}
