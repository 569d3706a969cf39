// Servers that echo the credentials they received, in every form one could come back in: as sent,
// lower-cased, percent-encoded, Base64 and Base64url (alone, as `Bearer <token>` or inside a dump of
// the headers), in the message, the code, the field errors, the headers. No form of a secret may
// reach any error's message, stack, cause, properties, headers, JSON form, or a logger line. The
// check decodes what it finds, so it does not depend on how the SDK redacts.
import { inspect } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DashboardClient, type Logger, RebuildClient } from "../../../src/index.js";
import { misbehaving, rejection } from "./server.js";

const b64 = (text: string) => Buffer.from(text, "latin1").toString("base64");
const b64url = (text: string) => Buffer.from(text, "latin1").toString("base64url");

/** Every form of `secret` an echoing server could produce. */
function echoes(secret: string, header: string): string[] {
  return [
    secret,
    secret.toLowerCase(),
    encodeURIComponent(secret),
    encodeURIComponent(secret).toLowerCase(),
    new URLSearchParams({ v: secret }).toString(),
    b64(secret),
    b64url(secret),
    b64(header),
    b64url(header),
    b64(JSON.stringify({ headers: { [header.split(":")[0] ?? ""]: secret } })),
    `Basic ${b64(`user:${secret}`)}`,
  ];
}

/** Whether `text` carries `secret`: as is (or lower-cased), percent-decoded, or Base64-decoded at any offset. */
function carries(text: string, secret: string): boolean {
  const found = (t: string) => t.includes(secret) || t.includes(secret.toLowerCase());
  if (found(text)) return true;
  for (const part of text.split(/[^%\w.~+*'()!-]+/)) {
    try {
      if (found(decodeURIComponent(part.replaceAll("+", " ")))) return true;
    } catch {}
  }
  for (const run of text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
    for (let offset = 0; offset < 4; offset++) {
      const decoded = Buffer.from(
        run.slice(offset).replaceAll("-", "+").replaceAll("_", "/"),
        "base64",
      ).toString("latin1");
      // At least half the secret, in a row, counts as carrying it.
      const half = secret.slice(
        Math.floor(secret.length / 4),
        Math.floor(secret.length / 4) + Math.ceil(secret.length / 2),
      );
      if (half.length >= 6 && decoded.includes(half)) return true;
    }
  }
  return false;
}

/** Every string reachable from an error: message, stack, causes, properties, headers, JSON, inspect. */
function surfaces(error: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<unknown>();
  const walk = (value: unknown): void => {
    if (typeof value === "string") out.push(value);
    else if (value !== null && typeof value === "object" && !seen.has(value)) {
      seen.add(value);
      if (value instanceof Error) {
        out.push(value.message, String(value.stack));
        walk(value.cause);
      }
      if (value instanceof Headers) for (const [name, v] of value) out.push(name, v);
      for (const v of Object.values(value)) walk(v);
    }
  };
  walk(error);
  out.push(JSON.stringify(error) ?? "", inspect(error, { depth: 8, showHidden: true }));
  return out;
}

function collectingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (message: string, ...details: unknown[]) => {
    lines.push(`${message} ${inspect(details, { depth: 6 })}`);
  };
  return { lines, debug: keep, info: keep, warn: keep, error: keep };
}

/** A server that answers `status` with every echo of the credentials it got, everywhere it can. */
async function echoing(status: number) {
  return misbehaving((req, res) => {
    const token = String(req.headers.authorization ?? "").replace(/^Bearer /, "");
    const key = String(req.headers["x-api-key"] ?? "");
    const secret = token || key;
    const header = token ? `Authorization: Bearer ${token}` : `X-API-Key: ${key}`;
    const forms = echoes(secret, header);
    res.writeHead(status, {
      "content-type": "application/json",
      "x-echo": forms.join(","),
      "www-authenticate": `Bearer realm="${encodeURIComponent(secret)}"`,
      "set-cookie": `session=${encodeURIComponent(secret)}`,
      "retry-after": "0",
      "ratelimit-limit": "1",
      "ratelimit-remaining": "0",
      "ratelimit-reset": "1",
    });
    res.end(
      JSON.stringify({
        message: `rejected ${forms.join(" | ")}`,
        error: { code: forms[6] },
        errors: forms.map((form, n) => ({
          type: form,
          path: `field.${form}`,
          message: `bad value #${n}: ${form}`,
        })),
      }),
    );
  });
}

const NASTY = [
  "tok_3f9c2b7a51e84d06a9d1c2e7f4b8a0d5",
  "key with spaces+/=~*'()!&?#%",
  "ÄÖÜ-latin1-ñ-secret-value",
  "abc.DEF-ghi_JKL~mno+pqr/stu=vw",
];

describe("servers that echo the credentials", () => {
  it.each([400, 401, 403, 404, 422, 429, 500, 503])(
    "status %i: no form of the token or key survives",
    async (status) => {
      for (const secret of NASTY) {
        const m = await echoing(status);
        const logger = collectingLogger();
        const errors = [
          await rejection(m.dashboard({ token: secret, logger, maxRetries: 1 }).servers.list({ page: 1 })),
          await rejection(
            m
              .rebuild({ apiKey: secret, logger, maxRetries: 1 })
              .submit({ sourceUrl: "https://a.example.com/" }),
          ),
        ];
        for (const text of [...errors.flatMap(surfaces), ...logger.lines]) {
          expect(carries(text, secret), `${secret} in: ${text.slice(0, 300)}`).toBe(false);
        }
      }
    },
  );

  it("a 2xx whose body echoes them: the ResponseValidationError holds none either", async () => {
    for (const secret of NASTY) {
      const m = await echoing(201);
      const logger = collectingLogger();
      const error = await rejection(
        m.dashboard({ token: secret, logger }).apiTokens.create({ name: "x", claims: [] }),
      );
      expect(error.name).toBe("ResponseValidationError");
      for (const text of [...surfaces(error), ...logger.lines]) expect(carries(text, secret)).toBe(false);
    }
  });

  it("upper-cased, as hex, shortened or cut: no 8 characters in a row of any form survive", async () => {
    const forms = (secret: string) => [secret, Buffer.from(secret).toString("hex"), b64(secret).slice(0, -2)];
    for (const secret of NASTY) {
      const m = await misbehaving((req, res) => {
        const token = String(req.headers.authorization ?? "").replace(/^Bearer /, "");
        const echoes = [
          token.toUpperCase(),
          Buffer.from(token).toString("hex"),
          Buffer.from(`Bearer ${token}`).toString("hex").toUpperCase(),
          token.slice(0, -1),
          token.slice(1),
          b64(token).slice(4),
        ];
        res.writeHead(400, { "content-type": "application/json", "x-echo": echoes.join(",") });
        res.end(
          JSON.stringify({
            message: echoes.join(" "),
            errors: echoes.map((echo) => ({ type: "x", path: echo, message: echo })),
          }),
        );
      });
      const logger = collectingLogger();
      const error = await rejection(m.dashboard({ token: secret, logger, maxRetries: 0 }).servers.list());
      const seen = [...surfaces(error), ...logger.lines].join("\n").toLowerCase();
      for (const form of forms(secret)) {
        for (let n = 0; n + 8 <= form.length; n++) {
          expect(seen, secret).not.toContain(form.slice(n, n + 8).toLowerCase());
        }
      }
    }
  });

  it("for any credential a header can carry", async () => {
    const m = await echoing(400);
    await fc.assert(
      fc.asyncProperty(
        fc
          .string({
            unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
            minLength: 12,
            maxLength: 40,
          })
          .filter((s) => /[a-z]/i.test(s)),
        async (secret) => {
          const logger = collectingLogger();
          const error = await rejection(
            m.dashboard({ token: secret, logger, maxRetries: 0 }).apiTokens.get(1),
          );
          for (const text of [...surfaces(error), ...logger.lines])
            expect(carries(text, secret), text.slice(0, 400)).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("credentials are checked at construction", () => {
  const origin = "https://api.example.com";
  const bad: [string, string][] = [
    ["a trailing newline (read from a file)", "tok_secret_value_0123456789\n"],
    ["a trailing space", "tok_secret_value_0123456789 "],
    ["a leading tab", "\ttok_secret_value_0123456789"],
    ["a non-breaking space at the end", "tok_secret_value_0123456789\u00a0"],
    ["a line break inside", "tok_secret\r\nvalue_0123456789"],
    ["a NUL", "tok_secret\u0000value_0123456789"],
    ["a character beyond Latin-1", "tok_secret_значение_0123456789"],
    ["nothing", ""],
  ];

  it.each(bad)("token with %s: a TypeError naming the option, never the value", (_, token) => {
    let error: unknown;
    try {
      new DashboardClient({ baseUrl: `${origin}/v1`, token });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(
      "DashboardClient: token must be a non-empty header value without surrounding whitespace",
    );
    expect(JSON.stringify(surfaces(error))).not.toContain("secret");
  });

  it.each(bad)("apiKey with %s: a TypeError naming the option, never the value", (_, apiKey) => {
    expect(() => new RebuildClient({ baseUrl: origin, partnerId: 1, apiKey })).toThrow(
      new TypeError("RebuildClient: apiKey must be a non-empty header value without surrounding whitespace"),
    );
  });

  it.each([
    ["user and password", "https://admin:hunter2-password@api.example.com/v1"],
    ["a user alone", "https://hunter2-password@api.example.com/v1"],
    ["an empty user info", "https://@api.example.com/v1"],
    ["a query", "https://api.example.com/v1?key=hunter2-password"],
    ["a fragment", "https://api.example.com/v1#hunter2-password"],
    ["no host", "https:///v1"],
    ["a space in the host", "https://api example.com/v1"],
  ])("a baseUrl with %s: a TypeError that does not quote it", (_, baseUrl) => {
    let error: unknown;
    try {
      new DashboardClient({ baseUrl, token: "t0k3n-valid" });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(
      "DashboardClient: baseUrl must be an absolute http or https URL without user info, query or fragment",
    );
    expect(JSON.stringify(surfaces(error))).not.toContain("hunter2");
  });

  it("a Latin-1 credential without surrounding whitespace is fine, spaces inside included", () => {
    expect(() => new DashboardClient({ baseUrl: `${origin}/v1`, token: "tök en\tvalue" })).not.toThrow();
  });
});
