import { BoundedLog } from "../bounded-log.js";
import type { DashboardSeed } from "./seed.js";

export interface UserRecord {
  readonly id: number;
  readonly email: string;
  readonly teamId: string;
}

/** One sent invitation email, as the outbox records it. */
export interface InvitationRecord {
  /** As sent. */
  readonly email: string;
  readonly teamId: string;
  readonly invitedByUserId: number;
  readonly sentAt: number;
}

/** The outbox keeps this many most recent invitations; older ones are dropped and counted. */
const INVITATION_LOG_LIMIT = 1000;

/** Teams, users, the invitation outbox, and the email → team resolution behind `team-guid`. */
export class TeamDirectory {
  readonly #teamGuids = new Map<string, string>();
  readonly #users = new Map<number, UserRecord>();
  readonly #userTeamByEmail = new Map<string, string>();
  /** Overwritten by each invitation, so it always holds the latest one. */
  readonly #invitedTeamByEmail = new Map<string, string>();
  // A log: bounded. The resolution above is state and keeps every invited email.
  readonly #outbox = new BoundedLog<InvitationRecord>(INVITATION_LOG_LIMIT);

  /** From a seed's or a snapshot's teams and users, their references and uniqueness checked (references.ts). */
  constructor(teams: DashboardSeed["teams"], users: DashboardSeed["users"]) {
    for (const team of teams) this.#teamGuids.set(team.id, team.guid.toLowerCase());
    for (const user of users) {
      this.#users.set(user.id, { id: user.id, email: user.email, teamId: user.team });
      this.#userTeamByEmail.set(emailKey(user.email), user.team);
    }
  }

  findUser(userId: number): UserRecord | undefined {
    return this.#users.get(userId);
  }

  invite(email: string, teamId: string, invitedByUserId: number, sentAt: number): void {
    this.#outbox.push({ email, teamId, invitedByUserId, sentAt });
    this.#invitedTeamByEmail.set(emailKey(email), teamId);
  }

  /** A user's own email wins over any invitation; among invitations the latest wins. */
  teamGuidFor(email: string): string | undefined {
    const key = emailKey(email);
    const teamId = this.#userTeamByEmail.get(key) ?? this.#invitedTeamByEmail.get(key);
    return teamId === undefined ? undefined : this.#teamGuids.get(teamId);
  }

  teams(): Array<{ id: string; guid: string }> {
    return Array.from(this.#teamGuids, ([id, guid]) => ({ id, guid }));
  }

  users(): Iterable<UserRecord> {
    return this.#users.values();
  }

  /** The most recent invitations, oldest first. */
  outbox(): readonly InvitationRecord[] {
    return this.#outbox.items();
  }

  /** How many older invitations the outbox dropped. */
  outboxDropped(): number {
    return this.#outbox.dropped;
  }

  /** Lower-cased invited email → team id, latest invitation winning (what `team-guid` resolves). */
  invitedTeams(): Array<[string, string]> {
    return [...this.#invitedTeamByEmail];
  }

  /** Replaces the outbox and the invited emails (a snapshot). */
  restoreInvitations(
    outbox: readonly InvitationRecord[],
    dropped: number,
    invitedTeams: ReadonlyArray<readonly [string, string]>,
  ): void {
    this.#outbox.restore(outbox, dropped);
    this.#invitedTeamByEmail.clear();
    for (const [email, teamId] of invitedTeams) this.#invitedTeamByEmail.set(emailKey(email), teamId);
  }
}

/** Emails match case-insensitively (contract-decisions), so indexes are keyed by this form. */
function emailKey(email: string): string {
  return email.toLowerCase();
}
