import { expect } from "vitest";
import type { Answer } from "./client.js";

export interface FieldErrorShape {
  type: string;
  path: string;
  message?: string;
}

/**
 * The answer is the decided error envelope: exactly `{ message, error: { code } }`, plus `errors`
 * on a 400 and nothing else.
 */
export function expectError(answer: Answer, status: number, code: string): void {
  expect({
    status: answer.status,
    code: (answer.body as { error?: { code?: unknown } })?.error?.code,
  }).toEqual({
    status,
    code,
  });
  const body = answer.body as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(
    status === 400 ? ["error", "errors", "message"] : ["error", "message"],
  );
  expect(typeof body.message).toBe("string");
  expect(Object.keys(body.error as object)).toEqual(["code"]);
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
}

/** A 400 whose field errors are exactly these `{ type, path }` pairs, in this order. */
export function expectFieldErrors(answer: Answer, expected: readonly FieldErrorShape[]): void {
  expectError(answer, 400, "VALIDATION_FAILED");
  const errors = (answer.body as { errors: FieldErrorShape[] }).errors;
  for (const error of errors) expect(typeof error.message).toBe("string");
  expect(errors.map(({ type, path }) => ({ type, path }))).toEqual(
    expected.map(({ type, path }) => ({ type, path })),
  );
}

/** The rebuild API's RateLimit-* headers, as numbers (absent ones as null). */
export function rateLimitOf(answer: Answer): {
  limit: number | null;
  remaining: number | null;
  reset: number | null;
} {
  const read = (name: string) => {
    const value = answer.headers.get(name);
    return value === null ? null : Number(value);
  };
  return {
    limit: read("ratelimit-limit"),
    remaining: read("ratelimit-remaining"),
    reset: read("ratelimit-reset"),
  };
}

export const NO_RATE_LIMIT_HEADERS = { limit: null, remaining: null, reset: null };
