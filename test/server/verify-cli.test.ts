// `verify` as the bin runs it (the command behind `npm start`, in a child process) against the
// standalone mock: the Done-when run of issue 19, and a bad option.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AssumptionReport } from "../../mocks/assumptions/recorder.js";
import { type RunningMockServer, startMockServer } from "../../mocks/node.js";
import { TOKEN } from "../support/default-seed.js";
import { startScript, stopAll } from "./spawn-cli.js";

let server: RunningMockServer | undefined;

afterEach(async () => {
  await stopAll();
  await server?.close();
  server = undefined;
});

describe("rebuild-dashboard-kit verify", () => {
  it("exits 0 against the mock with --allow-writes, and writes the report", async () => {
    server = await startMockServer({ port: 0 });
    const report = join(mkdtempSync(join(tmpdir(), "verify-cli-")), "r.json");
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
    expect(written.assumptions).toHaveLength(112);
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
});
