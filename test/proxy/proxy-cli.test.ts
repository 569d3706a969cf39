// `rebuild-dashboard-kit proxy` as the bin runs it (`npm start -- proxy …`): bad options exit 2 with
// a message naming the option; SIGTERM writes the report and leaves the HAR whole, exit 0.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startMockServer } from "../../mocks/node.js";
import { parseProxyArgs } from "../../mocks/proxy/proxy-args.js";
import { UsageError } from "../../mocks/server/flags.js";
import { startScript, stopAll } from "../server/spawn-cli.js";

// Each case boots node with tsx: seconds, not milliseconds, on a busy machine.
const SLOW = 60_000;

afterAll(stopAll);

describe("proxy options", () => {
  it.each([
    [
      ["--dashboard-upstream", "ftp://example.org/v1"],
      "--dashboard-upstream: must be an absolute http or https URL",
    ],
    [
      ["--rebuild-upstream", "http://user:pw@example.org"],
      "--rebuild-upstream: must be an absolute http or https URL",
    ],
    [
      ["--dashboard-upstream", "http://127.0.0.1/v1", "--port", "70000"],
      "--port must be an integer from 0 to 65535",
    ],
    [
      ["--dashboard-upstream", "http://127.0.0.1/v1", "--upstream-timeout", "0"],
      "--upstream-timeout must be an integer from 1 to 3600",
    ],
    [
      ["--dashboard-upstream", "http://127.0.0.1/v1", "--cors-origin", "nope"],
      "--cors-origin: not an origin",
    ],
    [["--dashboard-upstream", "http://127.0.0.1/v1", "--token", "x"], "unknown option --token"],
    [[], "give --dashboard-upstream URL, --rebuild-upstream URL or both"],
  ])("%j: a UsageError naming the option", (argv, message) => {
    expect(() => parseProxyArgs(argv)).toThrow(UsageError);
    expect(() => parseProxyArgs(argv)).toThrow(message);
  });

  it("the upstreams are kept without a trailing slash", () => {
    expect(
      parseProxyArgs([
        "--dashboard-upstream",
        "https://dash.example/v1/",
        "--rebuild-upstream",
        "https://rb.example",
      ]),
    ).toMatchObject({
      dashboardUpstream: "https://dash.example/v1",
      rebuildUpstream: "https://rb.example",
    });
  });
});

describe("npm start -- proxy", () => {
  it(
    "a bad option: exit 2, the message and the usage on stderr, no stack trace",
    async () => {
      const cli = startScript(["proxy", "--dashboard-upstream", "nope"]);
      expect((await cli.exited).code).toBe(2);
      expect(cli.stderr()).toContain("--dashboard-upstream: must be an absolute http or https URL");
      expect(cli.stderr()).toContain("Usage: rebuild-dashboard-kit proxy");
      expect(cli.stderr()).not.toMatch(/\n\s+at /);
    },
    SLOW,
  );

  it(
    "in front of the mock until SIGTERM: the report is written, the HAR whole, exit 0",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "proxy-cli-"));
      const mock = await startMockServer({ port: 0 });
      try {
        const cli = startScript([
          "proxy",
          "--port",
          "0",
          "--dashboard-upstream",
          `${mock.origin}/v1`,
          "--record",
          join(dir, "run.har"),
          "--report",
          join(dir, "report.json"),
        ]);
        const origin = await cli.listening();
        const answer = await fetch(`${origin}/v1/si/servers`, {
          headers: { authorization: "Bearer mock-token-unrestricted" },
        });
        expect(answer.status).toBe(200);
        cli.signal("SIGTERM");
        expect((await cli.exited).code).toBe(0);
        expect(cli.stdout()).toMatch(/GET \/v1\/si\/servers 200 \d+ms/);
        const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
        expect(report.assumptions.length).toBeGreaterThan(100);
        expect(report.assumptions).toContainEqual(
          expect.objectContaining({ pointer: "/paths/~1si~1servers/get/responses/200", status: "confirmed" }),
        );
        const har = readFileSync(join(dir, "run.har"), "utf8");
        expect(JSON.parse(har).log.entries).toHaveLength(1);
        expect(har).not.toContain("mock-token-unrestricted");
      } finally {
        await mock.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    SLOW,
  );
});
