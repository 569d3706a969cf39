// The dashboard half of a world snapshot. Tokens are kept as the hashes of their secrets: a
// snapshot never holds a secret, and a restored token still answers to its secret. The values are
// checked by the contract's schema (openapi/mock-control.yaml, `DashboardSnapshot`); references and
// duplicates by references.ts, as a seed's are, before the stores are built.
import { parseDateTime } from "../../../src/core/formats.js";
import type { components } from "../../../src/generated/mock-control.js";
import { validationFailed } from "../errors.js";
import { formatInstant } from "../timestamp.js";
import { makeClaim } from "./claims.js";
import { checkDashboardReferences } from "./references.js";
import { ServerInventory } from "./server-inventory.js";
import { TeamDirectory } from "./team-directory.js";
import { TokenStore } from "./token-store.js";

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
 * The stores a snapshot (its values accepted by the schema) describes, built without changing
 * anything, or VALIDATION_FAILED naming, below `path`, every broken reference and every key given
 * twice (references.ts).
 */
export function checkDashboardSnapshot(snapshot: DashboardSnapshot, path: string): DashboardStores {
  const problems = checkDashboardReferences(snapshot, path, "snapshot");
  if (problems.length > 0) throw validationFailed(problems);
  const directory = new TeamDirectory(snapshot.teams, snapshot.users);
  const servers = new ServerInventory();
  const tokens = new TokenStore();
  for (const { team, guid, product, address, active } of snapshot.servers) {
    servers.add(team, { guid, product, address, active });
  }
  const at = (text: string | null) => (text === null ? null : parseDateTime(text));
  for (const token of [...snapshot.tokens].sort((a, b) => a.id - b.id)) {
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
  tokens.reserveUntil(snapshot.nextTokenId);
  const { log, dropped, invitedTeams } = snapshot.invitations;
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
