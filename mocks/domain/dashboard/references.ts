// What a dashboard seed or snapshot must hold beyond what its schema states (openapi/mock-control.yaml,
// `DashboardSeed`, `DashboardSnapshot`): every reference names something it holds, and every key is
// given once. Written once for both, so a seed and a snapshot are refused for the same things in the
// same words, every problem at its element's path, all of them at once.
import type { FieldError } from "../errors.js";
import { firstGiven, pathOf } from "../validation/schema-errors.js";
import { duplicateClaims } from "./claims.js";

/** A token as a seed gives it (its secret) or a snapshot keeps it (the secret's hash). */
type TokenEntry = { id: number; userId: number; claims: readonly { name: string }[] } & (
  | { secret: string }
  | { secretHash: string }
);

/** What a seed and a snapshot both give; the last two only a snapshot. */
export interface DashboardEntries {
  teams: readonly { id: string; guid: string }[];
  users: readonly { id: number; email: string; team: string }[];
  tokens: readonly TokenEntry[];
  servers: readonly { guid: string; team: string }[];
  nextTokenId?: number;
  invitations?: {
    log: readonly { team: string }[];
    invitedTeams: readonly { team: string }[];
  };
}

/**
 * Every broken reference (`invalid_value`) and every key given again (`duplicate`, at the later
 * element) in `entries`, with paths below `path` (`dashboard`); `source` names what holds them in the
 * messages (`seed`, `snapshot`). GUIDs and emails compare case-insensitively, as the API matches them.
 */
export function checkDashboardReferences(
  entries: DashboardEntries,
  path: string,
  source: "seed" | "snapshot",
): FieldError[] {
  const problems: FieldError[] = [];
  const at = (...keys: Array<string | number>) => pathOf(path, ...keys);
  // One per key: the value → the path where it was first given.
  const unique = <K>(seen: Map<K, string>, key: K, where: string, what: string) =>
    firstGiven(seen, key, where, what, problems);
  const known = (found: boolean, where: string, what: string) => {
    if (!found)
      problems.push({
        type: "invalid_value",
        path: where,
        message: `must be the id of ${what} in the ${source}`,
      });
  };

  const teams = new Map<string, string>();
  const teamGuids = new Map<string, string>();
  entries.teams.forEach((team, index) => {
    unique(teams, team.id, at("teams", index, "id"), `team id ${team.id}`);
    // `team-guid` would answer one GUID for two teams with different inventories.
    unique(teamGuids, team.guid.toLowerCase(), at("teams", index, "guid"), `team GUID ${team.guid}`);
  });
  const teamKnown = (team: string, where: string) => known(teams.has(team), where, "a team");

  const users = new Map<number, string>();
  const emails = new Map<string, string>();
  entries.users.forEach((user, index) => {
    unique(users, user.id, at("users", index, "id"), `user id ${user.id}`);
    unique(emails, user.email.toLowerCase(), at("users", index, "email"), `email ${user.email}`);
    teamKnown(user.team, at("users", index, "team"));
  });

  const tokens = new Map<number, string>();
  const secrets = new Map<string, string>();
  let highestId = 0;
  entries.tokens.forEach((token, index) => {
    unique(tokens, token.id, at("tokens", index, "id"), `token id ${token.id}`);
    highestId = Math.max(highestId, token.id);
    known(users.has(token.userId), at("tokens", index, "userId"), "a user");
    // Never the secret itself in a message, nor its hash.
    if ("secret" in token) unique(secrets, token.secret, at("tokens", index, "secret"), "a secret");
    else unique(secrets, token.secretHash, at("tokens", index, "secretHash"), "a secret hash");
    problems.push(...duplicateClaims(token.claims, at("tokens", index, "claims")));
  });

  const servers = new Map<string, string>();
  entries.servers.forEach((server, index) => {
    unique(servers, server.guid.toLowerCase(), at("servers", index, "guid"), `server GUID ${server.guid}`);
    teamKnown(server.team, at("servers", index, "team"));
  });

  // Ids are never reused, so the next one is above every token kept.
  if (entries.nextTokenId !== undefined && entries.nextTokenId <= highestId) {
    problems.push({
      type: "too_small",
      path: at("nextTokenId"),
      message: `must be greater than ${highestId}`,
    });
  }
  entries.invitations?.log.forEach(({ team }, index) => {
    teamKnown(team, at("invitations", "log", index, "team"));
  });
  entries.invitations?.invitedTeams.forEach(({ team }, index) => {
    teamKnown(team, at("invitations", "invitedTeams", index, "team"));
  });
  return problems;
}
