import { ClockLimitError } from "../domain/clock.js";
import { validationFailed } from "../domain/errors.js";
import { patchFaults } from "../domain/faults.js";
import { formatTimestamp } from "../domain/timestamp.js";
import type { MockWorld } from "../world.js";
import { readBodyText, readJsonBody } from "./body.js";
import type { MockRequest, RouteDefinition } from "./types.js";

/** `PUT /__mock/snapshot` takes up to 64 MiB: a world with a full webhook sink is larger than 1 MiB. */
const SNAPSHOT_MAX_BYTES = 64 * 1024 * 1024;

// Ten years: far enough for any test, near enough that a typo cannot run the clock into nonsense.
const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;

/**
 * A control request's body that must be a JSON object: like the public APIs, a missing body is
 * `required` and anything else `invalid_type`, both at the root path.
 */
function readObjectBody(req: MockRequest, maxBytes?: number): Record<string, unknown> {
  const body = readJsonBody(req, maxBytes);
  if (typeof body === "object" && body !== null && !Array.isArray(body))
    return body as Record<string, unknown>;
  throw validationFailed([
    body === undefined
      ? { type: "required", path: "", message: "A JSON object body is required" }
      : { type: "invalid_type", path: "", message: "The body must be a JSON object" },
  ]);
}

function advanceSeconds(body: Record<string, unknown>): number {
  const { seconds } = body;
  if (seconds === undefined) {
    throw validationFailed([{ type: "required", path: "seconds", message: "seconds is required" }]);
  }
  const extra = Object.keys(body).filter((key) => key !== "seconds");
  if (extra.length > 0) {
    throw validationFailed(
      extra.map((path) => ({ type: "unknown_field", path, message: "is not a field of this request" })),
    );
  }
  if (
    typeof seconds !== "number" ||
    !Number.isFinite(seconds) ||
    seconds < 0 ||
    seconds > MAX_ADVANCE_SECONDS
  ) {
    throw validationFailed([
      {
        type: "invalid_value",
        path: "seconds",
        message: `must be a number from 0 to ${MAX_ADVANCE_SECONDS}`,
      },
    ]);
  }
  return seconds;
}

/** Advances the world's clock; one that would pass year 9999 is a field error at `seconds`. */
async function advance(world: MockWorld, seconds: number): Promise<void> {
  try {
    await world.clock.advance(seconds * 1000);
  } catch (error) {
    if (!(error instanceof ClockLimitError)) throw error;
    throw validationFailed([
      {
        type: "too_big",
        path: "seconds",
        message: `would move the clock past 9999-12-31T23:59:59Z; at most ${Math.floor(error.maxMs / 1000)} from now`,
      },
    ]);
  }
}

/**
 * The development-only control API under `/__mock`: identical wherever the mock runs. Not part of
 * the public contract; see README for each endpoint.
 */
export const controlRoutes: readonly RouteDefinition<MockWorld>[] = [
  {
    method: "POST",
    path: "/reset",
    handle: ({ world }) => {
      world.reset();
      return { status: 204 };
    },
  },
  { method: "GET", path: "/state", handle: ({ world }) => ({ status: 200, body: world.state() }) },
  { method: "GET", path: "/snapshot", handle: ({ world }) => ({ status: 200, body: world.snapshot() }) },
  {
    method: "PUT",
    path: "/snapshot",
    maxBodyBytes: SNAPSHOT_MAX_BYTES,
    handle: ({ world, req }) => {
      world.restore(readObjectBody(req, SNAPSHOT_MAX_BYTES));
      return { status: 204 };
    },
  },
  {
    method: "POST",
    path: "/clock/advance",
    handle: async ({ world, req }) => {
      await advance(world, advanceSeconds(readObjectBody(req)));
      return { status: 200, body: { now: formatTimestamp(world.clock.now()) } };
    },
  },
  {
    method: "PUT",
    path: "/partners/{partnerId}",
    handle: ({ world, req, params }) => ({
      status: 200,
      body: world.rebuild.upsertPartner(params.partnerId, readJsonBody(req) ?? {}),
    }),
  },
  {
    method: "POST",
    path: "/partners/{partnerId}/rotate-key",
    handle: ({ world, params }) => ({ status: 200, body: world.rebuild.rotateKey(params.partnerId) }),
  },
  {
    method: "POST",
    path: "/rebuilds/{requestId}/complete",
    handle: async ({ world, req, params }) => ({
      status: 200,
      body: await world.rebuild.complete(params.requestId ?? "", readJsonBody(req)),
    }),
  },
  {
    method: "POST",
    path: "/rebuilds/{requestId}/clone",
    handle: ({ world, req, params }) => ({
      status: 201,
      body: world.rebuild.clone(params.requestId ?? "", readJsonBody(req)),
    }),
  },
  {
    method: "POST",
    path: "/magic-links/open",
    handle: ({ world, req }) => ({ status: 200, body: world.rebuild.openMagicLink(readJsonBody(req)) }),
  },
  {
    method: "GET",
    path: "/deliveries",
    handle: ({ world }) => ({ status: 200, body: { data: world.rebuild.deliveries() } }),
  },
  {
    method: "POST",
    path: "/webhook-sink/{partnerId}",
    handle: ({ world, req, params }) => {
      world.rebuild.sinkReceive(
        params.partnerId,
        Object.fromEntries(req.headers.entries()),
        readBodyText(req),
      );
      return { status: 200, body: { received: true } };
    },
  },
  {
    method: "GET",
    path: "/webhook-sink/{partnerId}",
    handle: ({ world, params }) => ({
      status: 200,
      body: { data: world.rebuild.sinkList(params.partnerId) },
    }),
  },
  { method: "GET", path: "/faults", handle: ({ world }) => ({ status: 200, body: world.faults }) },
  {
    method: "PUT",
    path: "/faults",
    handle: ({ world, req }) => {
      world.faults = patchFaults(world.faults, readObjectBody(req));
      return { status: 200, body: world.faults };
    },
  },
];
