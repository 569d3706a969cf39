import { formatTimestamp } from "../timestamp.js";
import type { ServerInventory } from "./server-inventory.js";
import type { TeamDirectory } from "./team-directory.js";
import type { TokenRecord, TokenStore } from "./token-store.js";
import type { ApiTokenView, ServerView } from "./types.js";

/** A token as every response shows it: never the secret, never its hash. */
export function tokenView(record: TokenRecord): ApiTokenView {
  return {
    id: record.id,
    name: record.name,
    type: "user",
    claims: [...record.claims],
    createdAt: formatTimestamp(record.createdAt),
    lastUsedAt: record.lastUsedAt === null ? null : formatTimestamp(record.lastUsedAt),
    expireAt: record.expireAt === null ? null : formatTimestamp(record.expireAt),
  };
}

/** The whole dashboard state as JSON, for the control API and tests. Holds no secret and no hash. */
export interface DashboardState {
  teams: Array<{ id: string; guid: string }>;
  users: Array<{ id: number; email: string; team: string }>;
  /** By id, ascending. */
  tokens: Array<ApiTokenView & { userId: number }>;
  /** Team by team, each in connection order. */
  servers: Array<ServerView & { team: string }>;
  /** The invitation outbox, oldest first: the most recent `INVITATION_LOG_LIMIT`. */
  invitations: Array<{ email: string; team: string; invitedByUserId: number; sentAt: string }>;
  /** How many older invitations the outbox dropped. */
  dropped: { invitations: number };
}

export function stateOf(
  directory: TeamDirectory,
  tokens: TokenStore,
  servers: ServerInventory,
): DashboardState {
  return {
    teams: directory.teams(),
    users: Array.from(directory.users(), (user) => ({ id: user.id, email: user.email, team: user.teamId })),
    tokens: Array.from(tokens.all(), (record) => ({ ...tokenView(record), userId: record.userId })),
    servers: Array.from(servers.all(), ({ teamId, server }) => ({ ...server, team: teamId })),
    invitations: directory.outbox().map((invitation) => ({
      email: invitation.email,
      team: invitation.teamId,
      invitedByUserId: invitation.invitedByUserId,
      sentAt: formatTimestamp(invitation.sentAt),
    })),
    dropped: { invitations: directory.outboxDropped() },
  };
}
