import type { OperationInputs } from "../../../src/generated/dashboard-validators.js";
import type { Clock } from "../clock.js";
import { DomainError, validationFailed } from "../errors.js";
import { type Random, randomGuid } from "../random.js";
import { unchangingAnswer } from "../unchanging.js";
import { assertNotBroader, authorizeOperation } from "./authorization.js";
import { parseBearer } from "./bearer.js";
import { duplicateClaims, makeClaim } from "./claims.js";
import { paginate } from "./pagination.js";
import {
  generateSecret,
  hashSecret as pureJsSha256Hex,
  rememberingHashes,
  type Sha256Hex,
} from "./secrets.js";
import type { DashboardSeed } from "./seed.js";
import { checkDashboardSnapshot, type DashboardSnapshot, dashboardSnapshotOf } from "./snapshot.js";
import { buildStores, type DashboardStores } from "./stores.js";
import type { TokenRecord } from "./token-store.js";
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

/** What an operation takes once the contract's validators accepted it. */
type Input<Id extends keyof OperationInputs, Part extends "query" | "body"> = OperationInputs[Id][Part];

export interface DashboardDomainOptions {
  clock: Clock;
  random: Random;
  /** Checked against the contract already (the world's seed schema); `reset()` returns to it. */
  seed: DashboardSeed;
  /** How secrets are hashed: SHA-256, lowercase hex. Default: a pure-JS implementation. */
  sha256Hex?: Sha256Hex;
}

/**
 * The Dashboard management API's state and rules, free of HTTP. The route layer calls, per request:
 * `authenticate` (401) → `authorize` (403) → body size, media type and the operation's compiled
 * validators (413, 415, 400) → the operation, which applies only the rules a schema cannot state
 * (trimmed names, claim names once, claim breadth 403, unknown ids 404). Every failure is a thrown
 * `DomainError`; every result is a JSON-ready object in the wire shape.
 *
 * Each operation also runs `authorize` itself, so calling the domain directly cannot skip it. The
 * domain is one object for the world's whole life: `reset` and `restore` replace its state in place.
 */
export interface DashboardDomain {
  /**
   * Resolves `Authorization` to a principal and stamps the token's `lastUsedAt` (whatever the
   * request's outcome later). UNAUTHORIZED when missing, malformed, unknown, deleted or expired.
   */
  authenticate(authorization: string | null): Principal;
  /** Rules 1–4 of "Claims and authorization": may this token call the operation at all. FORBIDDEN. */
  authorize(principal: Principal, operation: DashboardOperation): void;

  /** `GET /si/servers`: the caller's team's servers in connection order. */
  listServers(principal: Principal, query: Input<"listServers", "query">): ListPage<ServerView>;
  /** `POST /si/servers` (201): new servers are active. */
  connectServers(principal: Principal, body: Input<"connectServers", "body">): { data: ServerView[] };
  /** `DELETE /si/servers/{guid}` (204). NOT_FOUND unless in the caller's team's inventory. */
  deleteServer(principal: Principal, guid: string): void;

  /** `GET /dashboard/api-tokens`: the caller's own tokens by id. */
  listApiTokens(principal: Principal, query: Input<"listApiTokens", "query">): ListPage<ApiTokenView>;
  /** `POST /dashboard/api-tokens` (201): the only result that carries the secret, as `token`. */
  createApiToken(principal: Principal, body: Input<"createApiToken", "body">): { data: CreatedApiTokenView };
  /** `GET /dashboard/api-tokens/{id}`. NOT_FOUND for another user's token. */
  getApiToken(principal: Principal, id: number): { data: ApiTokenView };
  /** `DELETE /dashboard/api-tokens/{id}` (204). A token may delete itself; it then gets 401 at once. */
  deleteApiToken(principal: Principal, id: number): void;

  /** `POST /accounts/invitations` (202): records each email in the outbox for the caller's team. */
  sendInvitations(principal: Principal, body: Input<"sendInvitations", "body">): { data: InvitationResult[] };
  /** `GET /accounts/team-guid`. NOT_FOUND when no user or invitation has the address. */
  getTeamGuid(principal: Principal, query: Input<"getTeamGuid", "query">): { data: TeamGuidResult };

  /** The state as JSON, without secrets or hashes (`GET /__mock/state`). */
  state(): DashboardState;
  /** Everything needed to carry on later; tokens as the hashes of their secrets. */
  snapshot(): DashboardSnapshot;
  /** Back to the seed. */
  reset(): void;
  /**
   * A snapshot whose values the contract's schema accepted, checked for `restore` and changing
   * nothing: VALIDATION_FAILED lists every broken reference and every key given twice below `path`.
   */
  check(snapshot: DashboardSnapshot, path: string): DashboardStores;
  /** Replaces the state with a checked snapshot. */
  restore(snapshot: DashboardStores): void;
}

export function createDashboardDomain({
  clock,
  random,
  seed,
  sha256Hex = pureJsSha256Hex,
}: DashboardDomainOptions): DashboardDomain {
  const hashSecret = sha256Hex;
  const hashPresented = rememberingHashes(sha256Hex);
  let stores: DashboardStores = loadSeed(seed, hashSecret);
  // The last server list answered, given again while the inventory (replaced by a reset or a restore,
  // counted on every change), the team and the page window are the same: a polled list is made and
  // serialised once (decisions/051).
  let lastServersPage:
    | {
        servers: DashboardStores["servers"];
        changes: number;
        teamId: string;
        page: number;
        pageSize: number;
        answer: ReturnType<DashboardDomain["listServers"]>;
      }
    | undefined;

  const teamOf = (userId: number): string => {
    const user = stores.directory.findUser(userId);
    if (!user) throw new DomainError("INTERNAL", `Token owner ${userId} does not exist`);
    return user.teamId;
  };

  const findToken = (principal: Principal, id: number): TokenRecord => {
    const record = stores.tokens.findOwned(principal.userId, id);
    if (!record) throw new DomainError("NOT_FOUND", "No API token with this id");
    return record;
  };

  return {
    authenticate(authorization) {
      const record = stores.tokens.findBySecretHash(hashPresented(parseBearer(authorization)));
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
      const { servers } = stores;
      const { teamId } = principal;
      const last = lastServersPage;
      if (
        last?.servers === servers &&
        last.changes === servers.changes &&
        last.teamId === teamId &&
        last.page === query.page &&
        last.pageSize === query.pageSize
      ) {
        return last.answer;
      }
      const team = servers.ofTeam(teamId);
      const answer = unchangingAnswer(paginate(team.values(), team.size, query, (server) => server));
      lastServersPage = {
        servers,
        changes: servers.changes,
        teamId,
        page: query.page,
        pageSize: query.pageSize,
        answer,
      };
      return answer;
    },

    connectServers(principal, { servers: wanted }) {
      authorizeOperation(principal, "connectServers");
      const { servers } = stores;
      const data = wanted.map(({ address, product }) => {
        let guid = randomGuid(random);
        while (servers.has(guid)) guid = randomGuid(random);
        return servers.add(principal.teamId, { guid, product, address, active: true });
      });
      return { data };
    },

    deleteServer(principal, guid) {
      authorizeOperation(principal, "deleteServer");
      if (!stores.servers.remove(principal.teamId, guid)) {
        throw new DomainError("NOT_FOUND", "No server with this GUID in your team's inventory");
      }
    },

    listApiTokens(principal, query) {
      authorizeOperation(principal, "listApiTokens");
      const { tokens } = stores;
      if (query.filter === undefined) {
        const owned = tokens.ownedBy(principal.userId);
        return paginate(owned.values(), owned.size, query, tokenView);
      }
      const matches = tokens.ownedMatching(principal.userId, query.filter.toLowerCase());
      return paginate(matches, matches.length, query, tokenView);
    },

    createApiToken(principal, body) {
      authorizeOperation(principal, "createApiToken");
      const duplicates = duplicateClaims(body.claims, "claims");
      if (duplicates.length > 0) throw validationFailed(duplicates);
      const claims = body.claims.map(makeClaim);
      assertNotBroader(principal.claims, claims);
      const { tokens } = stores;
      let secret: string;
      let secretHash: string;
      do {
        secret = generateSecret(random);
        secretHash = hashSecret(secret);
      } while (tokens.findBySecretHash(secretHash));
      // The contract's pattern accepts a name of 1 to 100 characters once trimmed; it is kept trimmed.
      const name = body.name.trim();
      const record: TokenRecord = {
        id: tokens.nextId(),
        userId: principal.userId,
        name,
        nameLower: name.toLowerCase(),
        claims: Object.freeze(claims),
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
      stores.tokens.remove(findToken(principal, id));
    },

    sendInvitations(principal, { emails }) {
      authorizeOperation(principal, "sendInvitations");
      const now = clock.now();
      for (const email of emails) stores.directory.invite(email, principal.teamId, principal.userId, now);
      return { data: emails.map((email) => ({ email, status: "sent" as const })) };
    },

    getTeamGuid(principal, { email }) {
      authorizeOperation(principal, "getTeamGuid");
      const teamGuid = stores.directory.teamGuidFor(email);
      if (teamGuid === undefined) {
        throw new DomainError("NOT_FOUND", "No user or invitation has this email address");
      }
      return { data: { email, teamGuid } };
    },

    state: () => stateOf(stores.directory, stores.tokens, stores.servers),
    snapshot: () => dashboardSnapshotOf(stores),
    reset() {
      stores = loadSeed(seed, hashSecret);
    },
    // Built in full by `check` before anything is replaced: a broken snapshot leaves the state as it was.
    check: checkDashboardSnapshot,
    restore(checked) {
      stores = checked;
    },
  };
}

/** The seed's stores (buildStores; the world reports a VALIDATION_FAILED as an invalid seed). */
function loadSeed(seed: DashboardSeed, hashSecret: Sha256Hex): DashboardStores {
  return buildStores(seed, {
    path: "dashboard",
    kind: "seed",
    secretHashOf: (token) => hashSecret(token.secret),
  });
}
