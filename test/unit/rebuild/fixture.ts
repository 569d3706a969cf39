import { createClock } from "../../../mocks/domain/clock.js";
import { DomainError, type DomainErrorCode, type FieldError } from "../../../mocks/domain/errors.js";
import { seededRandom } from "../../../mocks/domain/random.js";
import type {
  AuthenticatedPartner,
  CallbackDelivery,
  RebuildSeed,
} from "../../../mocks/domain/rebuild/index.js";
import { checkedBody } from "../../../mocks/domain/validation/check.js";
import { coreOf, createMockWorld } from "../../../mocks/world.js";
import { operations } from "../../../src/generated/rebuild-validators.js";

export const T0 = Date.parse("2026-11-22T00:00:00Z");
export const ORIGIN = "http://127.0.0.1:4010";
export const SINK_1001 = `${ORIGIN}/__mock/webhook-sink/1001`;

type TransportResult = { status: number } | { error: string };

const submitBody = operations.submitRebuild.body;

/**
 * The rebuild domain of a world on a frozen clock with a recording fake transport, reached as the
 * API and the control API reach it: a submission's body goes through the contract's compiled
 * validator first, control operations through the world's (raw values, as a JavaScript caller may
 * pass them). By default every POST gets 200; `respond` queues answers (one per POST, then 200).
 */
export function setup(options: { seed?: RebuildSeed; rebuildDelayMs?: number } = {}) {
  const clock = createClock({ frozenAt: T0 });
  const posts: Array<CallbackDelivery & { atMs: number }> = [];
  const queue: Array<TransportResult | "throw"> = [];
  const world = createMockWorld({
    clock,
    random: seededRandom(7),
    origin: ORIGIN,
    transport: async (delivery) => {
      posts.push({ ...delivery, atMs: clock.now() });
      const next = queue.shift() ?? { status: 200 };
      if (next === "throw") throw new Error("connection refused");
      return next;
    },
    ...(options.seed ? { seed: { rebuild: options.seed } } : {}),
    ...(options.rebuildDelayMs === undefined ? {} : { rebuildDelayMs: options.rebuildDelayMs }),
  });
  const rebuild = coreOf(world).rebuild;
  // Raw values, as a JavaScript caller of the world may pass them: the world checks them.
  const raw = <T>(value: unknown) => value as T;
  const domain = {
    authenticate: rebuild.authenticate,
    requireFeature: rebuild.requireFeature,
    admit: rebuild.admit,
    rateLimitState: rebuild.rateLimitState,
    submit: (partner: AuthenticatedPartner, body: unknown) =>
      rebuild.submit(partner, checkedBody(submitBody ?? missing(), body)),
    complete: (requestId: string, body?: unknown) => world.completeRebuild(requestId, raw(body)),
    clone: (requestId: string, body: unknown) => world.cloneRebuild(requestId, raw(body)),
    openMagicLink: (body: unknown) => world.openMagicLink(raw(body)),
    upsertPartner: (partnerId: unknown, body?: unknown) => world.upsertPartner(raw(partnerId), raw(body)),
    rotateKey: (partnerId: unknown) => world.rotatePartnerKey(raw(partnerId)),
    sinkReceive: (partnerId: number | string, headers: Record<string, string>, text: string | null) =>
      rebuild.sinkReceive(Number(partnerId), headers, text),
    sinkList: (partnerId: unknown) => world.listSinkEntries(raw(partnerId)).data,
    rebuilds: rebuild.rebuilds,
    projects: () => world.state().rebuild.projects,
    deliveries: rebuild.deliveries,
    state: rebuild.state,
    reset: rebuild.reset,
  };
  const partner = domain.authenticate("1001", "mock-rebuild-key-1001");
  return {
    clock,
    world,
    domain,
    posts,
    partner,
    respond: (...results: Array<TransportResult | "throw">) => queue.push(...results),
  };
}

function missing(): never {
  throw new Error("submitRebuild has no body validator");
}

/** The DomainError `run` throws (synchronously or as a rejection). */
export async function domainError(run: () => unknown): Promise<DomainError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("expected a DomainError, nothing was thrown");
}

export function thrownSync(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("expected a DomainError, nothing was thrown");
}

export function codeOf(run: () => unknown): DomainErrorCode {
  return thrownSync(run).code;
}

/** The field errors of the VALIDATION_FAILED that `run` throws, as `type@path`. */
export function fieldErrorsOf(run: () => unknown): string[] {
  const error = thrownSync(run);
  if (error.code !== "VALIDATION_FAILED") throw new Error(`expected VALIDATION_FAILED, got ${error.code}`);
  return (error.details.fieldErrors ?? []).map((e: FieldError) => `${e.type}@${e.path}`);
}

export function promptTokenFor(projectId: string): string {
  return Buffer.from(`rebuildId=${projectId}`, "utf8").toString("base64");
}
