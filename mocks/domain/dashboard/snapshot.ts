// The dashboard half of a world snapshot. Tokens are kept as the hashes of their secrets: a
// snapshot never holds a secret, and a restored token still answers to its secret.
import {
  readCount,
  readInstant,
  readInteger,
  readList,
  readRecord,
  readText,
} from "../snapshot/snapshot-input.js";
import { formatInstant } from "../timestamp.js";
import { type FieldErrorList, joinPath } from "../validation/field-errors.js";
import { isJsonObject, type JsonObject, jsonType } from "../validation/json-input.js";
import { makeClaim } from "./claims.js";
import { isValidEmailAddress } from "./email-address.js";
import { checkServer, checkTeam, checkToken, checkUser } from "./seed-check.js";
import { parseSeedTimestamp } from "./seed-timestamp.js";
import type { ServerInventory } from "./server-inventory.js";
import { TeamDirectory } from "./team-directory.js";
import type { TokenStore } from "./token-store.js";
import type { Claim, ClaimInput } from "./types.js";

/** The dashboard half of a world snapshot, as JSON. Times are RFC 3339 with milliseconds. */
export interface DashboardSnapshot {
  teams: Array<{ id: string; guid: string }>;
  users: Array<{ id: number; email: string; team: string }>;
  /** By id. `secretHash`: SHA-256 of the secret, lower-case hex; never the secret. */
  tokens: Array<{
    id: number;
    userId: number;
    name: string;
    secretHash: string;
    claims: Claim[];
    createdAt: string;
    expireAt: string | null;
    lastUsedAt: string | null;
  }>;
  /** The id the next created token gets: ids of deleted tokens are never given again. */
  nextTokenId: number;
  /** Team by team, each in connection order. */
  servers: Array<{ guid: string; team: string; address: string; product: string; active: boolean }>;
  invitations: {
    /** The outbox (oldest first) and how many older invitations it dropped. */
    log: Array<{ email: string; team: string; invitedByUserId: number; sentAt: string }>;
    dropped: number;
    /** Every invited email (lower-cased) and the team it resolves to. */
    invitedTeams: Array<{ email: string; team: string }>;
  };
}

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

const SECTIONS = ["teams", "users", "tokens", "nextTokenId", "servers", "invitations"];

/**
 * Checks the dashboard half of a snapshot value by value, recording problems at their paths below
 * `path`: teams, users, tokens and servers exactly as a seed's (a token with `secretHash` in place
 * of `secret`). What needs the whole half (references, duplicates) is checked as it is loaded.
 */
export function readDashboardSnapshot(
  value: unknown,
  path: string,
  errors: FieldErrorList,
): DashboardSnapshot | undefined {
  const before = errors.items.length;
  const root = readRecord(value, path, { required: SECTIONS }, errors);
  if (!root) return undefined;
  const entries = (key: string, check: (entry: JsonObject, at: string) => void) => {
    readList(root[key], joinPath(path, key), errors)?.forEach((entry, index) => {
      const at = joinPath(joinPath(path, key), index);
      if (isJsonObject(entry)) check(entry, at);
      else errors.add("invalid_type", at, `Must be an object, got ${jsonType(entry)}`);
    });
  };
  entries("teams", (entry, at) => checkTeam(entry, at, errors));
  entries("users", (entry, at) => checkUser(entry, at, errors));
  entries("tokens", (entry, at) => checkToken(entry, at, errors, "secretHash"));
  entries("servers", (entry, at) => checkServer(entry, at, errors));
  readInteger(root.nextTokenId, joinPath(path, "nextTokenId"), errors, {
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
  });
  readInvitations(root.invitations, joinPath(path, "invitations"), errors);
  // Every value was checked above, each with the seed's rules: past this point the types hold.
  return errors.items.length > before ? undefined : (root as unknown as DashboardSnapshot);
}

function readInvitations(value: unknown, path: string, errors: FieldErrorList): void {
  const fields = readRecord(value, path, { required: ["log", "dropped", "invitedTeams"] }, errors);
  if (!fields) return;
  const email = (item: unknown, at: string) => {
    const text = readText(item, at, errors);
    if (text !== undefined && !isValidEmailAddress(text)) {
      errors.add("invalid_format", at, "Must be a valid email address");
    }
  };
  readList(fields.log, joinPath(path, "log"), errors)?.forEach((item, index) => {
    const at = joinPath(joinPath(path, "log"), index);
    const invitation = readRecord(
      item,
      at,
      { required: ["email", "team", "invitedByUserId", "sentAt"] },
      errors,
    );
    if (!invitation) return;
    email(invitation.email, joinPath(at, "email"));
    readText(invitation.team, joinPath(at, "team"), errors);
    readInteger(invitation.invitedByUserId, joinPath(at, "invitedByUserId"), errors, {
      min: 1,
      max: Number.MAX_SAFE_INTEGER,
    });
    readInstant(invitation.sentAt, joinPath(at, "sentAt"), errors);
  });
  readCount(fields.dropped, joinPath(path, "dropped"), errors);
  readList(fields.invitedTeams, joinPath(path, "invitedTeams"), errors)?.forEach((item, index) => {
    const at = joinPath(joinPath(path, "invitedTeams"), index);
    const invited = readRecord(item, at, { required: ["email", "team"] }, errors);
    if (!invited) return;
    email(invited.email, joinPath(at, "email"));
    readText(invited.team, joinPath(at, "team"), errors);
  });
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
  const at = (text: string | null) => (text === null ? null : parseSeedTimestamp(text));
  for (const token of [...snapshot.tokens].sort((a, b) => a.id - b.id)) {
    if (!directory.findUser(token.userId)) {
      throw new Error(`token ${token.id} belongs to unknown user ${token.userId}`);
    }
    const name = token.name.trim();
    tokens.insert({
      id: token.id,
      userId: token.userId,
      name,
      nameLower: name.toLowerCase(),
      claims: Object.freeze(token.claims.map((claim) => makeClaim(claim as ClaimInput))),
      createdAt: parseSeedTimestamp(token.createdAt),
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
      sentAt: parseSeedTimestamp(invitation.sentAt),
    })),
    dropped,
    invitedTeams.map((invited) => [invited.email, invited.team] as const),
  );
  return { directory, servers, tokens };
}
