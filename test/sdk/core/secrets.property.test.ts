import { inspect } from "node:util";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { redact, sanitizeError } from "../../../src/core/redact.js";
import { createTransport } from "../../../src/core/transport.js";
import type { paths } from "./helpers.js";
import {
  errorBody,
  json,
  netError,
  recordingSleep,
  type Step,
  scriptedFetch,
  settleWithTimers,
} from "./helpers.js";

afterEach(() => {
  vi.useRealTimers();
});

const secretArb = fc.string({
  unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/="),
  minLength: 12,
  maxLength: 64,
});

/** Every string reachable from `value`: messages, stacks, causes, enumerable properties, headers. */
function strings(value: unknown, out: string[] = [], seen = new Set<unknown>()): string[] {
  if (typeof value === "string") out.push(value);
  else if (value === null || (typeof value !== "object" && typeof value !== "function"))
    out.push(String(value));
  else if (!seen.has(value)) {
    seen.add(value);
    if (value instanceof Error) {
      out.push(value.message, String(value.stack));
      strings(value.cause, out, seen);
    }
    if (value instanceof Headers) for (const [name, v] of value) out.push(name, v);
    for (const v of Object.values(value)) strings(v, out, seen);
  }
  return out;
}

type Scenario = (secrets: { token: string; apiKey: string }) => Step[];

// Each scenario puts the secrets wherever a careless server or fetch could.
const scenarios: Record<string, Scenario> = {
  "server echoes them in a 400": ({ token, apiKey }) => [
    () =>
      json(400, {
        message: `bad ${token}`,
        error: { code: "VALIDATION_FAILED" },
        errors: [{ type: "invalid_value", path: apiKey, message: `got ${apiKey}` }],
      }),
  ],
  "server echoes them in 401 headers": ({ token, apiKey }) => [
    () =>
      json(401, errorBody("UNAUTHORIZED", `Bearer ${token}`), {
        "x-echo": apiKey,
        "set-cookie": `s=${token}`,
      }),
  ],
  "429s then a 500, with logging": ({ token }) => [
    () => json(429, errorBody("RATE_LIMIT_EXCEEDED", token), { "retry-after": "1" }),
    () => json(429, errorBody("RATE_LIMIT_EXCEEDED", token), { "retry-after": "9999" }),
  ],
  "custom fetch throws an error quoting the request": ({ token, apiKey }) => [
    Object.assign(new TypeError(`failed with Authorization: Bearer ${token}`), {
      cause: new Error(`x-api-key=${apiKey}`),
      code: "ECONNRESET",
    }),
  ],
  "refused (the leaky fetch attaches the request)": () => [netError("ECONNREFUSED")],
  "custom fetch throws a string": ({ token }) => [`network down for ${token}` as unknown as Error],
  "success body is not JSON": ({ token }) => [
    () =>
      new Response(`{"data":{"token":"${token}"`, {
        status: 201,
        headers: { "content-type": "application/json" },
      }),
  ],
  "timeout, retried": () => ["hang", "hang", "hang"],
  "refused, then a 500 echoing": ({ token }) => [
    netError("ECONNREFUSED"),
    () => json(500, errorBody("INTERNAL", `trace: ${token}`)),
    () => json(503, errorBody("INTERNAL", `trace: ${token}`), { "retry-after": token }),
  ],
};

describe("no secret escapes", () => {
  it("into an error's message, stack, cause or properties, or into a log line", async () => {
    await fc.assert(
      fc.asyncProperty(
        secretArb,
        secretArb,
        fc.constantFrom(...Object.keys(scenarios)),
        fc.constantFrom("safe", "unsafe") as fc.Arbitrary<"safe" | "unsafe">,
        async (token, apiKey, name, policy) => {
          fc.pre(!token.includes(apiKey) && !apiKey.includes(token));
          const steps = scenarios[name]?.({ token, apiKey }) ?? [];
          const { fetch } = scriptedFetch(steps);
          // A custom fetch that leaks the whole Request (headers included) on its error.
          const leakyFetch = async (request: Request) => {
            try {
              return await fetch(request);
            } catch (error) {
              if (error instanceof Error)
                Object.assign(error, { request, headers: Object.fromEntries(request.headers) });
              throw error;
            }
          };
          const lines: unknown[][] = [];
          const log = (...args: unknown[]) => lines.push(args);
          const timed = steps.includes("hang");
          if (timed) vi.useFakeTimers();
          const t = createTransport<paths>(
            {
              client: "TestClient",
              baseUrl: "https://api.test/v1",
              authHeaders: { Authorization: `Bearer ${token}`, "X-API-Key": apiKey },
              secrets: [token, apiKey],
              fetch: leakyFetch,
              timeoutMs: 1000,
              logger: { debug: log, info: log, warn: log, error: log },
            },
            { sleep: recordingSleep().sleep, random: () => 0.5, now: () => 0 },
          );
          const call = t(policy, undefined, (http, init) =>
            http.POST("/items", { ...init, body: { name: "n" } }),
          );
          const error = await settleWithTimers(call).then(
            () => undefined,
            (e: unknown) => e,
          );
          vi.useRealTimers();
          expect(error).toBeDefined();
          const seen = [
            ...strings(error),
            inspect(error, { depth: 10, showHidden: false }),
            ...lines.flatMap((args) => strings(args)),
            inspect(lines, { depth: 10 }),
          ].join("\n");
          expect(seen).not.toContain(token);
          expect(seen).not.toContain(apiKey);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("redact", () => {
  it("removes every occurrence, longer secrets first", () => {
    expect(redact("a=abc123 b=abc123456", ["abc123", "abc123456"])).toBe("a=[REDACTED] b=[REDACTED]");
    expect(redact("nothing here", [""])).toBe("nothing here");
  });

  it("leaves no secret behind in any text", () => {
    fc.assert(
      fc.property(
        fc.array(secretArb, { minLength: 1, maxLength: 3 }),
        fc.array(fc.string()),
        (secrets, parts) => {
          const text = parts.flatMap((part, i) => [part, secrets[i % secrets.length] ?? ""]).join("");
          const out = redact(text, secrets);
          for (const secret of secrets) expect(out).not.toContain(secret);
        },
      ),
    );
  });
});

describe("sanitizeError", () => {
  it("keeps a clean error as is", () => {
    const error = netError("ECONNREFUSED");
    expect(sanitizeError(error, ["s3cret-value-xyz"])).toBe(error);
  });

  it("replaces a leaking chain with a plain error keeping name, message (redacted) and code", () => {
    const secret = "s3cret-value-xyz";
    const inner = Object.assign(new Error(`inner ${secret}`), { code: "ECONNRESET" });
    const outer = Object.assign(new TypeError(`fetch failed for ${secret}`, { cause: inner }), {
      request: {},
    });
    const clean = sanitizeError(outer, [secret]) as Error & { code: string };
    expect(clean).not.toBe(outer);
    expect(clean).toBeInstanceOf(Error);
    expect(clean.name).toBe("TypeError");
    expect(clean.message).toBe("fetch failed for [REDACTED]");
    expect(clean.code).toBe("ECONNRESET");
    expect(clean.cause).toBeUndefined();
    expect("request" in clean).toBe(false);
    expect(strings(clean).join()).not.toContain(secret);
  });

  it("treats an object-valued property or a non-Error value as leaking", () => {
    const withObject = Object.assign(new Error("x"), { headers: { a: "b" } });
    expect(sanitizeError(withObject, [])).not.toBe(withObject);
    expect(sanitizeError({ any: "thing" }, [])).toBeInstanceOf(Error);
    expect(sanitizeError("plain", [])).toBe("plain");
    expect(sanitizeError(undefined, [])).toBeUndefined();
  });
});
