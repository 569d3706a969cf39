import type { Clock } from "../clock.js";
import { DomainError } from "../errors.js";
import { type Random, randomGuid } from "../random.js";
import { FieldErrorList } from "../validation/field-errors.js";
import { assertNotBroader, authorizeOperation } from "./authorization.js";
import { parseBearer } from "./bearer.js";
import { makeClaim } from "./claims.js";
import { isValidEmailAddress } from "./email-address.js";
import { isGuid } from "./guid.js";
import { parseSendInvitationsBody } from "./invitation-input.js";
import { paginate } from "./pagination.js";
import { type QueryParams, readPageWindow, readQueryParam } from "./query.js";
import { generateSecret, hashSecret as pureJsSha256Hex, type Sha256Hex } from "./secrets.js";
import type { DashboardSeed } from "./seed.js";
import { assertDashboardSeedValues } from "./seed-check.js";
import { parseSeedTimestamp } from "./seed-timestamp.js";
import { parseConnectServersBody } from "./server-input.js";
import { ServerInventory } from "./server-inventory.js";
import { type DashboardSnapshot, dashboardSnapshotOf, storesFromSnapshot } from "./snapshot.js";
import { TeamDirectory } from "./team-directory.js";
import { parseCreateTokenBody } from "./token-input.js";
import { type TokenRecord, TokenStore } from "./token-store.js";
import type {
  ApiTokenView,
  CreatedApiTokenView,
  DashboardOperation,
  InvitationResult,
  ListPage,
  Principal,
  ServerView,
  TeamGuidResult,
} from "./types.js";
import { type DashboardState, stateOf, tokenView } from "./views.js";

export interface DashboardDomainOptions {
  clock: Clock;
  random: Random;
  seed: DashboardSeed;
  /**
   * Start from this checked snapshot instead of the seed (`world.restore`). A broken reference or a
   * duplicate in it throws an Error naming it.
   */
  snapshot?: DashboardSnapshot;
  /** How secrets are hashed: SHA-256, lowercase hex. Default: a pure-JS implementation. */
  sha256Hex?: Sha256Hex;
}

/**
 * The Dashboard management API's state and rules, free of HTTP. The HTTP layer calls, per request:
 * `authenticate` (401) → `authorize` (403) → its own body checks (413, 415, JSON syntax) → the
 * operation, which validates its raw input (400) and applies the operation's rules (403, 404).
 * Every failure is a thrown `DomainError`; every result is a JSON-ready object in the wire shape.
 *
 * Each operation also runs `authorize` itself, so calling the domain directly cannot skip it.
 */
export interface DashboardDomain {
  /**
   * Resolves `Authorization` to a principal and stamps the token's `lastUsedAt` (whatever the
   * request's outcome later). UNAUTHORIZED when missing, malformed, unknown, deleted or expired.
   */
  authenticate(authorization: string | null): Principal;
  /** Rules 1–4 of "Claims and authorization": may this token call the operation at all. FORBIDDEN. */
  authorize(principal: Principal, operation: DashboardOperation): void;

  /** `GET /si/servers`: the caller's team's servers in connection order. Query `page`, `pageSize`. */
  listServers(principal: Principal, query: QueryParams): ListPage<ServerView>;
  /** `POST /si/servers` (201): body `{ servers: [{ address, product }] }`; new servers are active. */
  connectServers(principal: Principal, body: unknown): { data: ServerView[] };
  /** `DELETE /si/servers/{guid}` (204). NOT_FOUND unless a GUID in the caller's team's inventory. */
  deleteServer(principal: Principal, guid: string): void;

  /** `GET /dashboard/api-tokens`: the caller's own tokens by id. Query `page`, `pageSize`, `filter`. */
  listApiTokens(principal: Principal, query: QueryParams): ListPage<ApiTokenView>;
  /** `POST /dashboard/api-tokens` (201): the only result that carries the secret, as `token`. */
  createApiToken(principal: Principal, body: unknown): { data: CreatedApiTokenView };
  /** `GET /dashboard/api-tokens/{id}`. NOT_FOUND for a malformed id or another user's token. */
  getApiToken(principal: Principal, id: string): { data: ApiTokenView };
  /** `DELETE /dashboard/api-tokens/{id}` (204). A token may delete itself; it then gets 401 at once. */
  deleteApiToken(principal: Principal, id: string): void;

  /** `POST /accounts/invitations` (202): records each email in the outbox for the caller's team. */
  sendInvitations(principal: Principal, body: unknown): { data: InvitationResult[] };
  /** `GET /accounts/team-guid`: query `email`. NOT_FOUND when no user or invitation has it. */
  getTeamGuid(principal: Principal, query: QueryParams): { data: TeamGuidResult };

  /** The state as JSON, without secrets or hashes (`GET /__mock/state`). */
  state(): DashboardState;
  /** Everything needed to carry on later; tokens as the hashes of their secrets. */
  snapshot(): DashboardSnapshot;
}

// A path id that cannot exist is a 404 like a missing one: positive, no leading zero, safe integer.
const TOKEN_ID = /^[1-9][0-9]{0,14}$/;

export function createDashboardDomain({
  clock,
  random,
  seed,
  snapshot,
  sha256Hex = pureJsSha256Hex,
}: DashboardDomainOptions): DashboardDomain {
  const hashSecret = sha256Hex;
  const { directory, servers, tokens } = snapshot
    ? storesFromSnapshot(snapshot, { servers: new ServerInventory(), tokens: new TokenStore() })
    : loadSeed(seed, hashSecret);

  const teamOf = (userId: number): string => {
    const user = directory.findUser(userId);
    if (!user) throw new DomainError("INTERNAL", `Token owner ${userId} does not exist`);
    return user.teamId;
  };

  const findToken = (principal: Principal, id: string): TokenRecord => {
    const record = TOKEN_ID.test(id) ? tokens.findOwned(principal.userId, Number(id)) : undefined;
    if (!record) throw new DomainError("NOT_FOUND", "No API token with this id");
    return record;
  };

  return {
    authenticate(authorization) {
      const record = tokens.findBySecretHash(hashSecret(parseBearer(authorization)));
      if (!record) throw new DomainError("UNAUTHORIZED", "Unknown or deleted API token");
      const now = clock.now();
      if (record.expireAt !== null && record.expireAt <= now) {
        throw new DomainError("UNAUTHORIZED", "This API token has expired");
      }
      record.lastUsedAt = now;
      return {
        tokenId: record.id,
        userId: record.userId,
        teamId: teamOf(record.userId),
        claims: record.claims,
      };
    },

    authorize: authorizeOperation,

    listServers(principal, query) {
      authorizeOperation(principal, "listServers");
      const errors = new FieldErrorList();
      const window = readPageWindow(query, errors);
      errors.throwIfAny();
      const team = servers.ofTeam(principal.teamId);
      return paginate(team.values(), team.size, window, (server) => server);
    },

    connectServers(principal, body) {
      authorizeOperation(principal, "connectServers");
      const data = parseConnectServersBody(body).map(({ address, product }) => {
        let guid = randomGuid(random);
        while (servers.has(guid)) guid = randomGuid(random);
        return servers.add(principal.teamId, { guid, product, address, active: true });
      });
      return { data };
    },

    deleteServer(principal, guid) {
      authorizeOperation(principal, "deleteServer");
      if (!isGuid(guid) || !servers.remove(principal.teamId, guid)) {
        throw new DomainError("NOT_FOUND", "No server with this GUID in your team's inventory");
      }
    },

    listApiTokens(principal, query) {
      authorizeOperation(principal, "listApiTokens");
      const errors = new FieldErrorList();
      const window = readPageWindow(query, errors);
      const filter = readQueryParam(query, "filter", errors)?.toLowerCase();
      errors.throwIfAny();
      if (filter === undefined) {
        const owned = tokens.ownedBy(principal.userId);
        return paginate(owned.values(), owned.size, window, tokenView);
      }
      const matches = tokens.ownedMatching(principal.userId, filter);
      return paginate(matches, matches.length, window, tokenView);
    },

    createApiToken(principal, body) {
      authorizeOperation(principal, "createApiToken");
      const input = parseCreateTokenBody(body);
      assertNotBroader(principal.claims, input.claims);
      let secret: string;
      let secretHash: string;
      do {
        secret = generateSecret(random);
        secretHash = hashSecret(secret);
      } while (tokens.findBySecretHash(secretHash));
      const record: TokenRecord = {
        id: tokens.nextId(),
        userId: principal.userId,
        name: input.name,
        nameLower: input.name.toLowerCase(),
        claims: Object.freeze(input.claims),
        createdAt: clock.now(),
        expireAt: null,
        lastUsedAt: null,
        secretHash,
      };
      tokens.insert(record);
      return { data: { ...tokenView(record), token: secret } };
    },

    getApiToken(principal, id) {
      authorizeOperation(principal, "getApiToken");
      return { data: tokenView(findToken(principal, id)) };
    },

    deleteApiToken(principal, id) {
      authorizeOperation(principal, "deleteApiToken");
      tokens.remove(findToken(principal, id));
    },

    sendInvitations(principal, body) {
      authorizeOperation(principal, "sendInvitations");
      const emails = parseSendInvitationsBody(body);
      const now = clock.now();
      for (const email of emails) directory.invite(email, principal.teamId, principal.userId, now);
      return { data: emails.map((email) => ({ email, status: "sent" as const })) };
    },

    getTeamGuid(principal, query) {
      authorizeOperation(principal, "getTeamGuid");
      const errors = new FieldErrorList();
      const email = readQueryParam(query, "email", errors);
      if (email === undefined) {
        if (errors.items.length === 0) errors.add("required", "email", '"email" is required');
        throw errors.toError();
      }
      if (!isValidEmailAddress(email)) {
        errors.add("invalid_format", "email", "Must be a valid email address");
        throw errors.toError();
      }
      const teamGuid = directory.teamGuidFor(email);
      if (teamGuid === undefined) {
        throw new DomainError("NOT_FOUND", "No user or invitation has this email address");
      }
      return { data: { email, teamGuid } };
    },

    state() {
      return stateOf(directory, tokens, servers);
    },

    snapshot() {
      return dashboardSnapshotOf({ directory, servers, tokens });
    },
  };
}

function loadSeed(seed: DashboardSeed, hashSecret: Sha256Hex) {
  // Seeds are often JSON files, so the declared type proves nothing until the values are checked.
  assertDashboardSeedValues(seed);
  const directory = new TeamDirectory(seed.teams, seed.users);
  return {
    directory,
    servers: loadServers(seed, directory),
    tokens: loadTokens(seed, directory, hashSecret),
  };
}

function loadServers(seed: DashboardSeed, directory: TeamDirectory): ServerInventory {
  const inventory = new ServerInventory();
  for (const server of seed.servers) {
    if (!directory.hasTeam(server.team)) {
      throw new Error(`Dashboard seed: server ${server.guid} is in unknown team ${server.team}`);
    }
    const { guid, product, address, active } = server;
    inventory.add(server.team, { guid, product, address, active });
  }
  return inventory;
}

function loadTokens(seed: DashboardSeed, directory: TeamDirectory, hashSecret: Sha256Hex): TokenStore {
  const store = new TokenStore();
  for (const token of [...seed.tokens].sort((a, b) => a.id - b.id)) {
    if (!directory.findUser(token.userId)) {
      throw new Error(`Dashboard seed: token ${token.id} belongs to unknown user ${token.userId}`);
    }
    const name = token.name.trim();
    store.insert({
      id: token.id,
      userId: token.userId,
      name,
      nameLower: name.toLowerCase(),
      claims: Object.freeze(token.claims.map(makeClaim)),
      createdAt: parseSeedTimestamp(token.createdAt),
      expireAt: token.expireAt == null ? null : parseSeedTimestamp(token.expireAt),
      lastUsedAt: token.lastUsedAt == null ? null : parseSeedTimestamp(token.lastUsedAt),
      secretHash: hashSecret(token.secret),
    });
  }
  return store;
}
