import { createClock } from "../../../mocks/domain/clock.js";
import { DomainError, type DomainErrorCode, type FieldError } from "../../../mocks/domain/errors.js";
import { seededRandom } from "../../../mocks/domain/random.js";
import {
  type CallbackDelivery,
  createRebuildDomain,
  type RebuildDomainOptions,
} from "../../../mocks/domain/rebuild/index.js";

export const T0 = Date.parse("2026-11-22T00:00:00Z");
export const ORIGIN = "http://127.0.0.1:4010";
export const SINK_1001 = `${ORIGIN}/__mock/webhook-sink/1001`;

type TransportResult = { status: number } | { error: string };

/**
 * A rebuild domain on a frozen clock with a recording fake transport. By default every POST gets
 * 200; `respond` queues answers (one per POST, then back to 200).
 */
export function setup(options: Partial<Pick<RebuildDomainOptions, "seed" | "rebuildDelayMs">> = {}) {
  const clock = createClock({ frozenAt: T0 });
  const posts: Array<CallbackDelivery & { atMs: number }> = [];
  const queue: Array<TransportResult | "throw"> = [];
  const domain = createRebuildDomain({
    clock,
    random: seededRandom(7),
    origin: ORIGIN,
    transport: async (delivery) => {
      posts.push({ ...delivery, atMs: clock.now() });
      const next = queue.shift() ?? { status: 200 };
      if (next === "throw") throw new Error("connection refused");
      return next;
    },
    ...options,
  });
  const partner = domain.authenticate("1001", "mock-rebuild-key-1001");
  return {
    clock,
    domain,
    posts,
    partner,
    respond: (...results: Array<TransportResult | "throw">) => queue.push(...results),
  };
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
