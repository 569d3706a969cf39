// `verify` (issue 19) against the standalone mock, in-process: nothing contradicted, every assumed
// element reported once, what it created removed again; and against the mock behind a small
// node:http front that deviates from the contract in chosen ways: exactly those deviations are
// contradicted, at their pointers.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { AssumptionReport } from "../../mocks/assumptions/recorder.js";
import { createClock, type RunningMockServer, startMockServer } from "../../mocks/node.js";
import { runVerify } from "../../mocks/server/verify.js";
import { assumedElements } from "../../src/generated/assumptions.js";
import { FROZEN_AT, TOKEN } from "../support/default-seed.js";

const API_KEY = "mock-rebuild-key-1001";
const running: RunningMockServer[] = [];
const fronts: Server[] = [];

/** The reports' directories, removed once the file is done. */
const reportDirs: string[] = [];

afterAll(() => {
  for (const dir of reportDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await Promise.all(fronts.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function mock(): Promise<RunningMockServer> {
  const server = await startMockServer({ port: 0, clock: createClock({ frozenAt: FROZEN_AT }) });
  running.push(server);
  return server;
}

interface Upstream {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A front on 127.0.0.1 that forwards every request to `origin` and lets `alter` change the answer
 * (`method`, the path without query, the answer); `hold` keeps a request unanswered.
 */
async function front(
  origin: string,
  alter: (method: string, path: string, answer: Upstream) => Upstream,
  hold?: (method: string, path: string) => boolean,
): Promise<string> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0] ?? "";
      if (hold?.(req.method ?? "", path)) return;
      const headers = { ...req.headers, host: new URL(origin).host };
      const forward = request(`${origin}${req.url}`, { method: req.method, headers }, (answer) => {
        const parts: Buffer[] = [];
        answer.on("data", (part: Buffer) => parts.push(part));
        answer.on("end", () => {
          const upstream: Upstream = {
            status: answer.statusCode ?? 502,
            headers: Object.fromEntries(
              Object.entries(answer.headers).flatMap(([name, value]) =>
                typeof value === "string" && !["content-length", "connection", "keep-alive"].includes(name)
                  ? [[name, value]]
                  : [],
              ),
            ),
            body: Buffer.concat(parts).toString("utf8"),
          };
          const altered = alter(req.method ?? "", path, upstream);
          res.writeHead(altered.status, altered.headers).end(altered.body);
        });
      });
      forward.on("error", () => res.writeHead(502).end());
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fronts.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function argsFor(dashboardUrl: string, rebuildUrl: string, report: string, extra: string[] = []): string[] {
  return [
    "--dashboard-url",
    dashboardUrl,
    "--token",
    TOKEN.unrestricted,
    "--rebuild-url",
    rebuildUrl,
    "--partner-id",
    "1001",
    "--api-key",
    API_KEY,
    "--allow-writes",
    "--source-url",
    "https://www.example.org/",
    "--report",
    report,
    ...extra,
  ];
}

async function run(argv: string[], env: Record<string, string> = {}, signal?: AbortSignal) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runVerify(argv, env, {
    output: { out: (line) => out.push(line), err: (line) => err.push(line) },
    timeoutMs: 5_000,
    ...(signal ? { signal } : {}),
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

function reportPath(): string {
  const dir = mkdtempSync(join(tmpdir(), "verify-"));
  reportDirs.push(dir);
  return join(dir, "r.json");
}

const readReport = (path: string) => JSON.parse(readFileSync(path, "utf8")) as AssumptionReport;
const contradicted = (report: AssumptionReport) =>
  report.assumptions
    .filter((entry) => entry.status === "contradicted")
    .map((entry) => `${entry.document} ${entry.pointer}`)
    .sort();

describe("verify against the standalone mock", () => {
  it("exits 0 with every assumed element once, at least 40 confirmed, none contradicted, and removes what it created", async () => {
    const server = await mock();
    const tokensBefore = server.world.snapshot().dashboard.tokens.length;
    const serversBefore = server.world.snapshot().dashboard.servers.length;
    const report = reportPath();
    const result = await run(argsFor(server.dashboardBaseUrl, server.rebuildBaseUrl, report));
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    const written = readReport(report);
    expect(written.assumptions.map((e) => `${e.document} ${e.pointer}`)).toEqual(
      assumedElements.map((e) => `${e.document} ${e.pointer}`),
    );
    expect(written.assumptions.filter((e) => e.status === "confirmed").length).toBeGreaterThanOrEqual(40);
    expect(contradicted(written)).toEqual([]);
    expect(written.violations).toEqual([]);
    expect(server.world.snapshot().dashboard.tokens.length).toBe(tokensBefore);
    expect(server.world.snapshot().dashboard.servers.length).toBe(serversBefore);
    // No secret in what it printed or wrote: the credentials, nor the created token's secret.
    for (const text of [result.out, readFileSync(report, "utf8")]) {
      expect(text).not.toContain(TOKEN.unrestricted);
      expect(text).not.toContain(API_KEY);
      expect(text).not.toContain("mck_");
    }
    expect(result.out).toMatch(
      new RegExp(`${assumedElements.length} assumed elements: \\d+ confirmed, 0 contradicted`),
    );
  });

  it("sends only requests that change nothing without --allow-writes", async () => {
    const server = await mock();
    const before = JSON.stringify(server.world.snapshot().dashboard.tokens.map((t) => t.id));
    const report = reportPath();
    const argv = argsFor(server.dashboardBaseUrl, server.rebuildBaseUrl, report).filter(
      (arg) => !["--allow-writes", "--source-url", "https://www.example.org/"].includes(arg),
    );
    const result = await run(argv);
    expect(result.code).toBe(0);
    expect(JSON.stringify(server.world.snapshot().dashboard.tokens.map((t) => t.id))).toBe(before);
    expect(server.world.snapshot().rebuild.rebuilds).toEqual([]);
    expect(result.out).not.toMatch(/ POST .*: (201|202|200)$/m);
  });
});

describe("verify against a service that deviates from the assumptions", () => {
  it("exits 1 and reports exactly the deviations as contradicted, at their pointers", async () => {
    const server = await mock();
    const origin = await front(server.origin, (method, path, answer) => {
      // Another success status for creating a token.
      if (method === "POST" && path === "/v1/dashboard/api-tokens" && answer.status === 201) {
        return { ...answer, status: 200 };
      }
      // A required assumed field missing: reading one token answers the token without `data`.
      if (method === "GET" && /^\/v1\/dashboard\/api-tokens\/\d+$/.test(path) && answer.status === 200) {
        const { data } = JSON.parse(answer.body) as { data: object };
        return { ...answer, body: JSON.stringify(data) };
      }
      // A path the service does not have: POST /si/servers is not found.
      if (method === "POST" && path === "/v1/si/servers") {
        const body = JSON.stringify({ message: "Not found", error: { code: "NOT_FOUND" } });
        return { status: 404, headers: { "content-type": "application/json" }, body };
      }
      if (path.startsWith("/api/")) {
        const { "ratelimit-remaining": _, ...headers } = answer.headers;
        const body = JSON.parse(answer.body) as { error?: { code?: string } };
        // Another error envelope: the code as a plain string.
        if (answer.status >= 400 && body.error) body.error = body.error.code as never;
        // Missing rate-limit headers: RateLimit-Remaining is never sent.
        return { ...answer, headers, body: JSON.stringify(body) };
      }
      return answer;
    });
    const report = reportPath();
    const result = await run(argsFor(`${origin}/v1`, origin, report));
    expect(result.code).toBe(1);
    const written = readReport(report);
    expect(contradicted(written)).toEqual(
      [
        "dashboard /paths/~1dashboard~1api-tokens/post/responses/201",
        "dashboard /components/schemas/ApiTokenResponse/properties/data",
        "dashboard /paths/~1si~1servers/post",
        // The error envelope as a string breaks both assumed descriptions of its `error` object:
        // every error's, and a 400's (pinned to VALIDATION_FAILED).
        "rebuild /components/schemas/ErrorResponse/properties/error",
        "rebuild /components/schemas/ValidationError/allOf/1/properties/error",
        "rebuild /components/headers/RateLimit-Remaining",
      ].sort(),
    );
    expect(written.violations).toEqual([]);
    const evidence = (pointer: string) => written.assumptions.find((e) => e.pointer === pointer)?.evidence;
    expect(evidence("/paths/~1dashboard~1api-tokens/post/responses/201")).toBe(
      "POST /dashboard/api-tokens answered 200 where 201 is documented",
    );
    expect(evidence("/paths/~1si~1servers/post")).toBe(
      "POST /si/servers answered 404: the service has no such operation",
    );
    expect(evidence("/components/headers/RateLimit-Remaining")).toMatch(/RateLimit-Remaining absent$/);
    expect(evidence("/components/schemas/ApiTokenResponse/properties/data")).toMatch(/body\.data absent$/);
    // The summary names each contradiction with its evidence.
    for (const entry of written.assumptions.filter((e) => e.status === "contradicted")) {
      expect(result.out).toContain(entry.pointer);
      expect(result.out).toContain(entry.evidence);
    }
    // What was not changed held: the token was still removed (its id came back in the 200).
    expect(server.world.snapshot().dashboard.tokens.map((t) => t.name)).not.toContain(
      "rebuild-dashboard-kit verify",
    );
  });
});

describe("verify's own failures", () => {
  it("invites --invite-email and reads its team GUID, confirming the invitation and team elements", async () => {
    const server = await mock();
    const report = reportPath();
    const result = await run(
      argsFor(server.dashboardBaseUrl, server.rebuildBaseUrl, report, [
        "--invite-email",
        "new.member@example.com",
      ]),
    );
    expect(result.code).toBe(0);
    const confirmed = readReport(report)
      .assumptions.filter((e) => e.status === "confirmed")
      .map((e) => e.label);
    expect(confirmed).toEqual(
      expect.arrayContaining([
        "POST /accounts/invitations → 202",
        "GET /accounts/team-guid → 200",
        "schema TeamGuid.teamGuid",
        "schema Invitation.status",
      ]),
    );
    expect(result.out).not.toContain("new.member@example.com");
    expect(readFileSync(report, "utf8")).not.toContain("new.member@example.com");
  });

  it("removes what it created when interrupted, and exits 130", async () => {
    const server = await mock();
    const interrupt = new AbortController();
    // The read of the token verify created never gets an answer: the run is interrupted there.
    const origin = await front(
      server.origin,
      (_method, _path, answer) => answer,
      (method, path) => {
        const held = method === "GET" && /^\/v1\/dashboard\/api-tokens\/(\d+)$/.exec(path);
        if (!held || Number(held[1]) < 10 || Number(held[1]) > 100) return false;
        setTimeout(() => interrupt.abort("SIGINT"), 10);
        return true;
      },
    );
    const tokens = () => server.world.snapshot().dashboard.tokens.map((t) => t.name);
    const result = await run(argsFor(`${origin}/v1`, origin, reportPath()), {}, interrupt.signal);
    expect(result.code).toBe(130);
    expect(result.out).toContain("Interrupted: cleaning up.");
    expect(result.out).toMatch(/DELETE \/dashboard\/api-tokens\/\d+: remove the token created: 204/);
    expect(tokens()).not.toContain("rebuild-dashboard-kit verify");
  });

  it("exits 2 when a service cannot be reached, or refuses the credentials", async () => {
    const server = await mock();
    const closed = await front(server.origin, (_m, _p, answer) => answer);
    await new Promise((resolve) => fronts.splice(0)[0]?.close(resolve));
    const unreachable = await run(["--dashboard-url", `${closed}/v1`, "--token", TOKEN.unrestricted]);
    expect(unreachable.code).toBe(2);
    expect(unreachable.err).toContain(`verify: could not reach the dashboard service at ${closed}/v1`);

    const refused = await run([
      "--rebuild-url",
      server.rebuildBaseUrl,
      "--partner-id",
      "1001",
      "--api-key",
      "not-the-key",
    ]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain("verify: the rebuild service refused --partner-id and --api-key (401)");
    expect(`${refused.out}${refused.err}`).not.toContain("not-the-key");
  });

  it("exits 2 before sending anything when --report cannot be written", async () => {
    const server = await mock();
    const before = server.world.snapshot().dashboard.tokens.map((t) => t.lastUsedAt);
    const result = await run([
      "--dashboard-url",
      server.dashboardBaseUrl,
      "--token",
      TOKEN.unrestricted,
      "--report",
      "/nonexistent-folder/r.json",
    ]);
    expect(result.code).toBe(2);
    expect(result.err).toBe(
      "verify: cannot write --report /nonexistent-folder/r.json (ENOENT on its folder)",
    );
    expect(result.out).toBe("");
    expect(server.world.snapshot().dashboard.tokens.map((t) => t.lastUsedAt)).toEqual(before);
  });

  it("exits 2 when the base URL is wrong (the first documented operation is not found)", async () => {
    const server = await mock();
    const result = await run(["--dashboard-url", server.origin, "--token", TOKEN.unrestricted]);
    expect(result.code).toBe(2);
    expect(result.err).toContain(
      "verify: the dashboard service answered 404 to GET /si/servers: check --dashboard-url (it ends in /v1)",
    );
  });

  it("takes the secrets from environment variables", async () => {
    const server = await mock();
    const result = await run(["--dashboard-url", server.dashboardBaseUrl], {
      DASHBOARD_TOKEN: TOKEN.unrestricted,
    });
    expect(result.code).toBe(0);
    expect(result.out).toMatch(
      new RegExp(`${assumedElements.length} assumed elements: \\d+ confirmed, 0 contradicted`),
    );
  });

  it.each([
    [[], "give --dashboard-url, --rebuild-url or both"],
    [["--dashboard-url", "http://127.0.0.1:1/v1"], "--dashboard-url needs --token (or DASHBOARD_TOKEN)"],
    [
      ["--rebuild-url", "http://127.0.0.1:1", "--api-key", "k"],
      "--rebuild-url needs --partner-id (or REBUILD_PARTNER_ID)",
    ],
    [
      ["--dashboard-url", "ftp://x/v1", "--token", "t"],
      "--dashboard-url must be an absolute http or https URL",
    ],
    [
      ["--dashboard-url", "http://127.0.0.1:1/v1", "--token", "t", "--invite-email", "a@b.c"],
      "--invite-email goes with --allow-writes",
    ],
    [
      ["--dashboard-url", "http://127.0.0.1:1/v1", "--token", "t", "--source-url", "https://x.org/"],
      "--source-url goes with --rebuild-url",
    ],
    [["--dashboard-url", "http://127.0.0.1:1/v1", "--token", "t", "--token", "u"], "--token is given twice"],
    [["--tokn=top-secret-value"], "unknown option --tokn"],
    [
      ["--dashboard-url", "http://127.0.0.1:1/v1", "--token", " padded"],
      "--token must be a non-empty header value",
    ],
    [["--dashboard-url"], "--dashboard-url needs a value"],
  ])("exits 2 for %j, naming the option", async (argv, message) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.err).toContain(message);
    expect(result.err).not.toContain("top-secret-value");
    expect(result.out).toBe("");
  });

  it("prints its usage, every probe with the status it expects, for --help", async () => {
    const result = await run(["--help"]);
    expect(result.code).toBe(0);
    expect(result.out).toContain("dashboard POST /si/servers: a body over 1 MiB → 413");
    expect(result.out).toContain(
      "rebuild POST /api/integration/partners/hostpanel/rebuilds: without credentials → 401",
    );
    for (const variable of ["DASHBOARD_TOKEN", "REBUILD_PARTNER_ID", "REBUILD_API_KEY"]) {
      expect(result.out).toContain(variable);
    }
  });
});
