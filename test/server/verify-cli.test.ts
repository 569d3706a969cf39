// `verify` as the bin runs it (the command behind `npm start`, in a child process) against the
// standalone mock: the Done-when run of issue 19, and a bad option.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AssumptionReport } from "../../mocks/assumptions/recorder.js";
import { type RunningMockServer, startMockServer } from "../../mocks/node.js";
import { assumedElements } from "../../src/generated/assumptions.js";
import { TOKEN } from "../support/default-seed.js";
import { startScript, stopAll } from "./spawn-cli.js";

let server: RunningMockServer | undefined;
let front: Server | undefined;
/** A test's scratch directory (its report), removed after it. */
let scratch: string | undefined;

afterEach(async () => {
  await stopAll();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
  front?.closeAllConnections();
  await new Promise((resolve) => (front ? front.close(resolve) : resolve(undefined)));
  front = undefined;
  await server?.close();
  server = undefined;
});

/** A front on 127.0.0.1 forwarding to `origin`, except the requests `hold` keeps unanswered (`onHold` is told). */
async function holdingFront(
  origin: string,
  hold: (method: string, path: string) => boolean,
  onHold: () => void,
) {
  front = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (hold(req.method ?? "", req.url ?? "")) {
        onHold();
        return;
      }
      const forward = request(
        `${origin}${req.url}`,
        { method: req.method, headers: { ...req.headers, host: new URL(origin).host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => front?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
}

describe("rebuild-dashboard-kit verify", () => {
  it("exits 0 against the mock with --allow-writes, and writes the report", async () => {
    server = await startMockServer({ port: 0 });
    scratch = mkdtempSync(join(tmpdir(), "verify-cli-"));
    const report = join(scratch, "r.json");
    const cli = startScript([
      "verify",
      "--dashboard-url",
      server.dashboardBaseUrl,
      "--token",
      TOKEN.unrestricted,
      "--rebuild-url",
      server.rebuildBaseUrl,
      "--partner-id",
      "1001",
      "--api-key",
      "mock-rebuild-key-1001",
      "--allow-writes",
      "--source-url",
      "https://www.example.org/",
      "--report",
      report,
    ]);
    expect((await cli.exited).code).toBe(0);
    const written = JSON.parse(readFileSync(report, "utf8")) as AssumptionReport;
    expect(written.assumptions).toHaveLength(assumedElements.length);
    expect(written.assumptions.filter((e) => e.status === "confirmed").length).toBeGreaterThanOrEqual(40);
    expect(written.assumptions.filter((e) => e.status === "contradicted")).toEqual([]);
    expect(cli.stdout()).toContain(`Report written to ${report}`);
    expect(cli.stderr()).toBe("");
  });

  it("exits 2 for a bad option, naming it, with no stack trace", async () => {
    const cli = startScript([
      "verify",
      "--dashboard-url",
      "http://127.0.0.1:1/v1",
      "--token",
      "t",
      "--port",
      "1",
    ]);
    expect((await cli.exited).code).toBe(2);
    expect(cli.stderr()).toContain("unknown option --port");
    expect(cli.stderr()).not.toMatch(/^\s+at /m);
  });

  it("on SIGINT removes the token it created, then exits 130", async () => {
    server = await startMockServer({ port: 0 });
    let held: () => void = () => {};
    const holding = new Promise<void>((resolve) => {
      held = resolve;
    });
    // The read of the token verify created (ids above the seed's) never gets an answer.
    const origin = await holdingFront(
      server.origin,
      (method, path) => method === "GET" && /^\/v1\/dashboard\/api-tokens\/(1\d|[2-9]\d)$/.test(path),
      () => held(),
    );
    const cli = startScript([
      "verify",
      "--dashboard-url",
      `${origin}/v1`,
      "--token",
      TOKEN.unrestricted,
      "--allow-writes",
    ]);
    await holding;
    cli.signal("SIGINT");
    expect((await cli.exited).code).toBe(130);
    expect(cli.stdout()).toContain("Interrupted: cleaning up.");
    expect(server.world.snapshot().dashboard.tokens.map((t) => t.name)).not.toContain(
      "rebuild-dashboard-kit verify",
    );
  });
});
