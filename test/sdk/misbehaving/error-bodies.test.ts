// Error answers built to be expensive: a body under maxResponseBytes (86 kB gzipped on the wire)
// that holds 30,000 field errors and a long message (3.8 MB). Building the error is linear and small: a
// bounded number of field errors kept, each string and the message cut, so the call settles within
// timeoutMs + 1 s whatever the body.
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { MAX_ERROR_TEXT_CHARS, MAX_FIELD_ERRORS } from "../../../src/core/errors.js";
import { ValidationError } from "../../../src/index.js";
import { misbehaving, rejection, TOKEN } from "./server.js";

// A message of one repeated letter and field errors that almost appear in it: searching the
// message for each of them is the worst case of a substring search.
const filler = "a".repeat(12);
const HOSTILE = JSON.stringify({
  message: `${"a".repeat(500_000)} ${TOKEN}`,
  error: { code: "VALIDATION_FAILED" },
  errors: Array.from({ length: 30_000 }, (_, n) => ({
    type: "t",
    path: `${filler}${n}`,
    message: `${filler}b ${TOKEN}`,
  })),
});

describe("a hostile 400", () => {
  it(`(${(HOSTILE.length / 1e6).toFixed(1)} MB, 30,000 field errors) settles within timeoutMs + 1 s, its error small and redacted`, async () => {
    const gzipped = gzipSync(HOSTILE);
    expect(HOSTILE.length).toBeGreaterThan(3_500_000);
    expect(HOSTILE.length).toBeLessThan(4 * 1024 * 1024);
    const m = await misbehaving((_req, res) => {
      res.writeHead(400, { "content-type": "application/json", "content-encoding": "gzip" });
      res.end(gzipped);
    });
    const started = performance.now();
    const error = await rejection(m.dashboard({ timeoutMs: 1000, maxRetries: 0 }).servers.list());
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(ValidationError);
    expect(elapsed).toBeLessThan(2000);
    const { fieldErrors, message } = error as ValidationError;
    expect(fieldErrors).toHaveLength(MAX_FIELD_ERRORS);
    expect(fieldErrors[0]).toEqual({ type: "t", path: `${filler}0`, message: `${filler}b [REDACTED]` });
    // The message: the label, the status, the code, the server's message cut, five field errors.
    expect(message.length).toBeLessThan(2 * MAX_ERROR_TEXT_CHARS + 1000);
    expect(message).toMatch(/^GET \/v1\/si\/servers failed with 400 VALIDATION_FAILED: a+… \(/);
    expect(message).toContain("; …)");
    expect(message).not.toContain(TOKEN.slice(0, 8));
  });

  it("a string cut short of a secret shows none of it", async () => {
    const m = await misbehaving((_req, res) => {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          message: `${"m".repeat(MAX_ERROR_TEXT_CHARS - 10)}${TOKEN}`,
          errors: [{ type: "t", path: "p", message: `${"e".repeat(MAX_ERROR_TEXT_CHARS - 12)}${TOKEN}` }],
        }),
      );
    });
    const error = (await rejection(m.dashboard({ maxRetries: 0 }).servers.list())) as ValidationError;
    expect(error.message).not.toContain(TOKEN.slice(0, 4));
    expect(error.fieldErrors[0]?.message).not.toContain(TOKEN.slice(0, 4));
    expect(error.fieldErrors[0]?.message).toMatch(/^e+\[REDACTED]…$/);
  });
});
