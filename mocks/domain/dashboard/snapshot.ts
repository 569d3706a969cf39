// The dashboard half of a world snapshot. Tokens are kept as the hashes of their secrets: a
// snapshot never holds a secret, and a restored token still answers to its secret. The values are
// checked by the contract's schema (openapi/mock-control.yaml, `DashboardSnapshot`); references and
// duplicates by references.ts, as a seed's are, before the stores are built.
import { parseDateTime } from "../../../src/core/formats.js";
import type { components } from "../../../src/generated/mock-control.js";
import { formatInstant } from "../timestamp.js";
import { buildStores, type DashboardStores } from "./stores.js";

/** The dashboard half of a world snapshot, as JSON. Times are RFC 3339 with milliseconds. */
export type DashboardSnapshot = components["schemas"]["DashboardSnapshot"];

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
  const stores = buildStores(snapshot, { path, kind: "snapshot", secretHashOf: (token) => token.secretHash });
  const { directory, tokens } = stores;
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
  return stores;
}
