import { vi } from "vitest";
import { abortError } from "../../../src/core/errors.js";
import { createTransport, type TransportHooks, type TransportOptions } from "../../../src/core/transport.js";

type NoParams = { query?: never; header?: never; path?: never; cookie?: never };
type Json<T> = { headers: { [name: string]: unknown }; content: { "application/json": T } };
type ErrorBody = { message: string; error: { code: string } };

/** A tiny stand-in for openapi-typescript output (the real one is generated from the contract). */
export interface paths {
  "/items": {
    parameters: NoParams;
    get: {
      parameters: {
        query?: { page?: number; pageSize?: number };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: { 200: Json<{ totalCount: number; data: Item[] }>; 400: Json<ErrorBody> };
    };
    post: {
      parameters: NoParams;
      requestBody: { content: { "application/json": { name: string } } };
      responses: { 201: Json<{ data: Item & { token: string } }>; 400: Json<ErrorBody> };
    };
  };
  "/items/{id}": {
    parameters: NoParams;
    delete: {
      parameters: { query?: never; header?: never; path: { id: number }; cookie?: never };
      requestBody?: never;
      responses: { 204: { headers: { [name: string]: unknown }; content?: never }; 404: Json<ErrorBody> };
    };
  };
}

export interface Item {
  id: number;
  name: string;
}

export const BASE_URL = "https://api.test/v1";
export const TOKEN = "tok_3f9c2b7a51e84d06a9d1c2e7f4b8a0d5";
/** Whole seconds, so HTTP-dates (second precision) round-trip exactly. */
export const NOW = Date.UTC(2026, 10, 22, 2, 39, 49);

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

export function errorBody(code: string, message = `${code} happened`) {
  return { message, error: { code } };
}

/** A fetch failure as undici reports it: `TypeError("fetch failed")` with the system error as cause. */
export function netError(code: string): TypeError {
  return new TypeError("fetch failed", {
    cause: Object.assign(new Error(`connect ${code} 203.0.113.7:443`), { code, syscall: "connect" }),
  });
}

/** One scripted outcome: a response (factory, since a body is read once), a thrown error, or a hang. */
export type Step = (() => Response) | Error | "hang";

/** A fetch that plays `steps` in order and records every request it receives. */
export function scriptedFetch(steps: Step[]) {
  const requests: Request[] = [];
  const fetch = vi.fn(async (request: Request): Promise<Response> => {
    requests.push(request);
    const step = steps[requests.length - 1];
    if (step === undefined) throw new Error(`unexpected request ${requests.length}`);
    if (step === "hang") {
      return new Promise((_, reject) => {
        request.signal.addEventListener("abort", () => reject(request.signal.reason));
      });
    }
    if (step instanceof Error) throw step;
    return step();
  });
  return { fetch, requests };
}

/** Same step `n` times. */
export function times(n: number, step: Step): Step[] {
  return Array.from({ length: n }, () => step);
}

/** A sleep that records each wait and returns at once (or rejects when already aborted). */
export function recordingSleep() {
  const waits: number[] = [];
  const sleep: TransportHooks["sleep"] = async (ms, signal) => {
    waits.push(ms);
    if (signal?.aborted) throw abortError();
  };
  return { waits, sleep };
}

/**
 * A transport over the fake paths with a scripted fetch, a recording sleep, fixed jitter and clock,
 * and three typical methods: a safe list, an unsafe create (mapped to its `data`), a safe delete.
 */
export function setup(
  steps: Step[],
  options: Partial<TransportOptions> = {},
  hooks: Partial<TransportHooks> = {},
) {
  const { fetch, requests } = scriptedFetch(steps);
  const { waits, sleep } = recordingSleep();
  const t = createTransport<paths>(
    {
      client: "TestClient",
      baseUrl: BASE_URL,
      authHeaders: { Authorization: `Bearer ${TOKEN}` },
      secrets: [TOKEN],
      fetch,
      ...options,
    },
    { sleep, random: () => 0.5, now: () => NOW, ...hooks },
  );
  return {
    t,
    fetch,
    requests,
    waits,
    list: (opts?: { signal?: AbortSignal; timeoutMs?: number }) =>
      t("safe", opts, (http, init) => http.GET("/items", { ...init, params: { query: { page: 1 } } })),
    create: (opts?: { signal?: AbortSignal; timeoutMs?: number }) =>
      t(
        "unsafe",
        opts,
        (http, init) => http.POST("/items", { ...init, body: { name: "x" } }),
        (body) => body.data,
      ),
    remove: (id: number) =>
      t("safe", undefined, (http, init) => http.DELETE("/items/{id}", { ...init, params: { path: { id } } })),
  };
}

/** Settles `promise`, advancing fake timers (when installed) for paths that wait on a timeout timer. */
export async function settleWithTimers<T>(promise: Promise<T>, stepMs = 1000): Promise<T> {
  if (!vi.isFakeTimers()) return promise;
  let done = false;
  const tracked = promise.finally(() => {
    done = true;
  });
  tracked.catch(() => {});
  while (!done) await vi.advanceTimersByTimeAsync(stepMs);
  return tracked;
}
