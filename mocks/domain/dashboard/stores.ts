// The dashboard's stores, built the one way from a seed (tokens with their secrets) or a snapshot
// (tokens with the secrets' hashes), after references.ts has found nothing wrong in either.
import { parseDateTime } from "../../../src/core/formats.js";
import { validationFailed } from "../errors.js";
import { makeClaim } from "./claims.js";
import { checkDashboardReferences } from "./references.js";
import type { DashboardSeed } from "./seed.js";
import { createServerInventory, type ServerInventory } from "./server-inventory.js";
import { createTeamDirectory, type TeamDirectory } from "./team-directory.js";
import { createTokenStore, type TokenStore } from "./token-store.js";

/** The dashboard's stores, as `createDashboardDomain` builds them from a seed or a snapshot. */
export interface DashboardStores {
  directory: TeamDirectory;
  servers: ServerInventory;
  tokens: TokenStore;
}

/** The fields of a token that a seed and a snapshot share. */
interface TokenFields {
  id: number;
  userId: number;
  name: string;
  claims: DashboardSeed["tokens"][number]["claims"];
  createdAt: string;
  expireAt?: string | null;
  lastUsedAt?: string | null;
}

/** What the stores are built from; `secretHashOf` reads a token's hash (hashing a seed's secret). */
interface StoreSource<Token extends TokenFields> {
  teams: DashboardSeed["teams"];
  users: DashboardSeed["users"];
  servers: DashboardSeed["servers"];
  tokens: readonly Token[];
}

/**
 * The stores of `source`, or VALIDATION_FAILED naming every broken reference and every key given
 * twice at its path below `path`; `kind` names the source in the messages.
 */
export function buildStores<Token extends TokenFields>(
  source: StoreSource<Token> & Parameters<typeof checkDashboardReferences>[0],
  {
    path,
    kind,
    secretHashOf,
  }: { path: string; kind: "seed" | "snapshot"; secretHashOf: (token: Token) => string },
): DashboardStores {
  const problems = checkDashboardReferences(source, path, kind);
  if (problems.length > 0) throw validationFailed(problems);
  const directory = createTeamDirectory(source.teams, source.users);
  const servers = createServerInventory();
  for (const { team, guid, product, address, active } of source.servers) {
    servers.add(team, { guid, product, address, active });
  }
  const tokens = createTokenStore();
  const at = (text: string | null | undefined) => (text == null ? null : parseDateTime(text));
  for (const token of [...source.tokens].sort((a, b) => a.id - b.id)) {
    const name = token.name.trim();
    tokens.insert({
      id: token.id,
      userId: token.userId,
      name,
      nameLower: name.toLowerCase(),
      claims: Object.freeze(token.claims.map(makeClaim)),
      createdAt: parseDateTime(token.createdAt),
      expireAt: at(token.expireAt),
      lastUsedAt: at(token.lastUsedAt),
      secretHash: secretHashOf(token),
    });
  }
  return { directory, servers, tokens };
}
