import { createBoundedLog } from "../bounded-log.js";
import type { DashboardSeed } from "./seed.js";

interface UserRecord {
  readonly id: number;
  readonly email: string;
  readonly teamId: string;
}

/** One sent invitation email, as the outbox records it. */
interface InvitationRecord {
  /** As sent. */
  readonly email: string;
  readonly teamId: string;
  readonly invitedByUserId: number;
  readonly sentAt: number;
}

/** The outbox keeps this many most recent invitations; older ones are dropped and counted. */
const INVITATION_LOG_LIMIT = 1000;

/** Teams, users, the invitation outbox, and the email → team resolution behind `team-guid`. */
export interface TeamDirectory {
  findUser(userId: number): UserRecord | undefined;
  invite(email: string, teamId: string, invitedByUserId: number, sentAt: number): void;
  /** A user's own email wins over any invitation; among invitations the latest wins. */
  teamGuidFor(email: string): string | undefined;
  teams(): Array<{ id: string; guid: string }>;
  users(): Iterable<UserRecord>;
  /** The most recent invitations, oldest first. */
  outbox(): readonly InvitationRecord[];
  /** How many older invitations the outbox dropped. */
  outboxDropped(): number;
  /** Lower-cased invited email → team id, latest invitation winning (what `team-guid` resolves). */
  invitedTeams(): Array<[string, string]>;
  /** Replaces the outbox and the invited emails (a snapshot). */
  restoreInvitations(
    outbox: readonly InvitationRecord[],
    dropped: number,
    invitedTeams: ReadonlyArray<readonly [string, string]>,
  ): void;
}

/** From a seed's or a snapshot's teams and users, their references and uniqueness checked (references.ts). */
export function createTeamDirectory(
  givenTeams: DashboardSeed["teams"],
  givenUsers: DashboardSeed["users"],
): TeamDirectory {
  const teamGuids = new Map<string, string>();
  const users = new Map<number, UserRecord>();
  const userTeamByEmail = new Map<string, string>();
  /** Overwritten by each invitation, so it always holds the latest one. */
  const invitedTeamByEmail = new Map<string, string>();
  // A log: bounded. The resolution above is state and keeps every invited email.
  const outbox = createBoundedLog<InvitationRecord>(INVITATION_LOG_LIMIT);

  for (const team of givenTeams) teamGuids.set(team.id, team.guid.toLowerCase());
  for (const user of givenUsers) {
    users.set(user.id, { id: user.id, email: user.email, teamId: user.team });
    userTeamByEmail.set(emailKey(user.email), user.team);
  }

  return {
    findUser: (userId) => users.get(userId),
    invite(email, teamId, invitedByUserId, sentAt) {
      outbox.push({ email, teamId, invitedByUserId, sentAt });
      invitedTeamByEmail.set(emailKey(email), teamId);
    },
    teamGuidFor(email) {
      const key = emailKey(email);
      const teamId = userTeamByEmail.get(key) ?? invitedTeamByEmail.get(key);
      return teamId === undefined ? undefined : teamGuids.get(teamId);
    },
    teams: () => Array.from(teamGuids, ([id, guid]) => ({ id, guid })),
    users: () => users.values(),
    outbox: () => outbox.items(),
    outboxDropped: () => outbox.dropped,
    invitedTeams: () => [...invitedTeamByEmail],
    restoreInvitations(kept, dropped, invitedTeams) {
      outbox.restore(kept, dropped);
      invitedTeamByEmail.clear();
      for (const [email, teamId] of invitedTeams) invitedTeamByEmail.set(emailKey(email), teamId);
    },
  };
}

/** Emails match case-insensitively (contract-decisions), so indexes are keyed by this form. */
function emailKey(email: string): string {
  return email.toLowerCase();
}
