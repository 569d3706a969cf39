// `npm start` (the CLI in mocks/server/) as a developer runs it: a free port with `--port 0`, a full
// rebuild flow over real HTTP, a clean stop on SIGTERM, `--help`, usage errors (exit 2), bad seed
// files (exit 1), a custom `--seed` and `--quiet`.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockServer } from "../../mocks/node.js";
import { aliveDescendants, type Exit, npmStart, type SpawnedCli, startScript, stopAll } from "./spawn-cli.js";

// Each case boots tsx through npm: seconds, not milliseconds, on a busy machine.
const SLOW = 90_000;

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mock-cli-"));
});
// After all, not each: tests below run concurrently, and one ending must not stop another's CLI.
afterAll(async () => {
  await stopAll();
  await rm(dir, { recursive: true, force: true });
});

async function seedFile(name: string, content: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** SIGTERM to the whole group, then the exit; the port must be closed afterwards. */
async function stop(cli: SpawnedCli, origin: string) {
  cli.signal("SIGTERM");
  const exit = await cli.exited;
  await expect(fetch(`${origin}/__mock/state`)).rejects.toThrow();
  return exit;
}

describe("npm start", () => {
  it(
    "serves both APIs on the printed origin: a rebuild completes and its callback lands in the sink; SIGTERM stops it",
    async () => {
      const cli = npmStart(["--port", "0"]);
      const origin = await cli.listening();
      expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(cli.stdout()).toContain(`Dashboard base URL  ${origin}/v1`);
      expect(cli.stdout()).toContain("mock-token-unrestricted");

      const auth = { "x-partner-id": "1001", "x-api-key": "mock-rebuild-key-1001" };
      const rebuilds = `${origin}/api/integration/partners/hostpanel/rebuilds`;
      const first = await post(rebuilds, { sourceUrl: "https://stall.example.com/" }, auth);
      expect(first.status).toBe(202);
      const completed = await post(`${origin}/__mock/rebuilds/${String(first.body.requestId)}/complete`, {});
      expect(completed).toMatchObject({ status: 200, body: { status: "success" } });
      const second = await post(rebuilds, { sourceUrl: "https://www.example.com/" }, auth);
      expect(second.status).toBe(202);
      expect((await post(`${origin}/__mock/clock/advance`, { seconds: 5 })).status).toBe(200);

      const sink = (await (await fetch(`${origin}/__mock/webhook-sink/1001`)).json()) as {
        data: Array<{ headers: Record<string, string>; body: { request_id: string; status: string } }>;
      };
      expect(sink.data.map((entry) => [entry.body.request_id, entry.body.status])).toEqual([
        [first.body.requestId, "success"],
        [second.body.requestId, "success"],
      ]);
      expect(sink.data[0]?.headers["x-api-key"]).toBe("mock-webhook-key-1001");
      const servers = await fetch(`${origin}/v1/si/servers`, {
        headers: { authorization: "Bearer mock-token-unrestricted" },
      });
      expect(servers.status).toBe(200);

      const exit = await stop(cli, origin);
      expect(cli.stdout()).toContain("SIGTERM: stopping");
      expect(cli.stdout()).toMatch(/^POST \/api\/integration\/partners\/hostpanel\/rebuilds 202 \d+ms$/m);
      expect(cli.stdout()).toMatch(/^GET \/v1\/si\/servers 200 \d+ms$/m);
      // The whole group got the signal: node stops cleanly (the next test shows its exit code 0),
      // and npm, which got it too, may re-raise it on itself once its child has exited.
      expect(exit).toSatisfy((e: Exit) => e.code === 0 || (e.code === null && e.signal === "SIGTERM"));
    },
    SLOW,
  );

  it.each(["SIGTERM", "SIGINT"] as const)(
    "the start script exits with code 0 on %s",
    async (signal) => {
      const cli = startScript(["--port", "0", "--quiet"]);
      const origin = await cli.listening();
      cli.signal(signal);
      expect(await cli.exited).toEqual({ code: 0, signal: null });
      expect(cli.stdout()).toContain(`${signal}: stopping`);
      await expect(fetch(`${origin}/__mock/state`)).rejects.toThrow();
    },
    SLOW,
  );

  it(
    "--help prints the usage and exits 0 without listening",
    async () => {
      const cli = npmStart(["--help"]);
      expect(await cli.exited).toEqual({ code: 0, signal: null });
      for (const option of [
        "--port N",
        "--host H",
        "--seed FILE",
        "--state-file FILE",
        "--rebuild-delay S",
        "--cors-origin ORIGIN",
        "--no-cors",
        "--allowed-host NAME",
        "--quiet",
        "--help",
      ]) {
        expect(cli.stdout()).toContain(option);
      }
      expect(cli.stdout()).toContain("Usage: rebuild-dashboard-kit [options]");
      expect(cli.stdout()).not.toContain("Listening on");
    },
    SLOW,
  );

  it.concurrent.each([
    [["--bogus"], "unknown option --bogus"],
    [["--port", "http"], "--port must be an integer from 0 to 65535, got http"],
    [["--port", "70000"], "--port must be an integer from 0 to 65535"],
    [["--port"], "--port needs a value"],
    [["--rebuild-delay", "-1"], "--rebuild-delay must be a number of seconds"],
    [
      ["--cors-origin", "localhost:5173"],
      "--cors-origin: not an origin (http[s]://host[:port]): localhost:5173",
    ],
    [["--cors-origin", "http://app.test/path"], "--cors-origin: not an origin"],
    [["--allowed-host", "a b"], "--allowed-host: not a host name or address: a b"],
    [["--no-cors", "--cors-origin", "*"], "--no-cors and --cors-origin contradict each other"],
    [["--state-file"], "--state-file needs a value"],
  ])(
    "a bad flag %j exits 2 with the message and the usage",
    async (args, message) => {
      const cli = npmStart(args);
      expect((await cli.exited).code).toBe(2);
      expect(cli.stderr()).toContain(message);
      expect(cli.stderr()).toContain("Usage: rebuild-dashboard-kit [options]");
      expect(cli.stdout()).not.toContain("Listening on");
    },
    SLOW,
  );

  it.concurrent.each([
    ["a missing file", null, /cannot read seed file .*missing\.json: ENOENT/],
    ["invalid JSON", '{"dashboard": ', /seed file .*invalid-json\.json is not valid JSON/],
    ["not an object", "[]", /Invalid seed: \(root\): must be an object/],
    ["an unknown top-level key", '{"partners": []}', /Invalid seed: partners: is not a known field/],
    [
      "a list that is not a list",
      '{"dashboard": {"teams": 5}}',
      /Invalid seed: .*dashboard\.teams: must be an array/,
    ],
    ["a half that is not an object", '{"rebuild": "partners"}', /Invalid seed: rebuild: must be an object/],
    [
      "an invalid partner",
      '{"rebuild": {"partners": [{"id": 0}]}}',
      /Invalid seed: rebuild\.partners\.0\.id: must be at least 1/,
    ],
    [
      "a token of an unknown user",
      JSON.stringify({
        dashboard: {
          teams: [{ id: "t", guid: "3f2a7c1e-8b4d-4e6f-9a1b-2c3d4e5f6a7b" }],
          users: [],
          tokens: [
            { id: 1, userId: 7, name: "n", secret: "s", claims: [], createdAt: "2026-01-01T00:00:00+00:00" },
          ],
          servers: [],
        },
      }),
      /Invalid seed: dashboard\.tokens\.0\.userId: must be the id of a user in the seed/,
    ],
    [
      "an unknown claim name",
      JSON.stringify({
        dashboard: {
          teams: [{ id: "t", guid: "3f2a7c1e-8b4d-4e6f-9a1b-2c3d4e5f6a7b" }],
          users: [{ id: 1, email: "dev@example.com", team: "t" }],
          tokens: [
            {
              id: 1,
              userId: 1,
              name: "n",
              secret: "s",
              claims: [{ name: "admin" }],
              createdAt: "2026-01-01T00:00:00+00:00",
            },
          ],
          servers: [],
        },
      }),
      /Invalid seed: dashboard\.tokens\.0\.claims\.0\.name: must be one of mcp, manage-api-tokens/,
    ],
  ])(
    "a bad seed file (%s) exits 1 with a clear message",
    async (name, content, message) => {
      const file = `${name.toLowerCase().replace(/\W+/g, "-").replace(/^a-/, "")}.json`;
      const path = content === null ? join(dir, "missing.json") : await seedFile(file, content);
      const cli = npmStart(["--port", "0", "--seed", path]);
      expect((await cli.exited).code).toBe(1);
      expect(cli.stderr()).toMatch(/mock server failed to start: /);
      expect(cli.stderr()).toMatch(message);
      expect(cli.stderr()).not.toMatch(/\n\s+at /);
    },
    SLOW,
  );

  it(
    "--seed replaces the default seed; --quiet drops the request log",
    async () => {
      const seed = {
        dashboard: {
          teams: [{ id: "acme", guid: "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0" }],
          users: [{ id: 1, email: "dev@acme.example", team: "acme" }],
          tokens: [
            {
              id: 1,
              userId: 1,
              name: "Dev",
              secret: "acme-dev-token",
              claims: [],
              createdAt: "2026-01-01T00:00:00+00:00",
            },
          ],
          servers: [
            {
              guid: "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee",
              team: "acme",
              address: "https://panel.acme.example",
              product: "plesk",
              active: true,
            },
          ],
        },
        rebuild: {
          partners: [
            {
              id: 77,
              apiKey: "acme-rebuild-key",
              webhookApiKey: "acme-webhook-key",
              webhookUrl: "{origin}/__mock/webhook-sink/77",
            },
          ],
        },
      };
      const cli = npmStart([
        "--port",
        "0",
        "--quiet",
        "--seed",
        await seedFile("acme.json", JSON.stringify(seed)),
      ]);
      const origin = await cli.listening();
      expect(cli.stdout()).toContain("acme-dev-token");
      expect(cli.stdout()).not.toContain("mock-token-unrestricted");

      const servers = await fetch(`${origin}/v1/si/servers`, {
        headers: { authorization: "Bearer acme-dev-token" },
      });
      expect(await servers.json()).toEqual({
        totalCount: 1,
        data: [
          {
            guid: "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee",
            product: "plesk",
            address: "https://panel.acme.example",
            active: true,
          },
        ],
      });
      const defaultToken = await fetch(`${origin}/v1/si/servers`, {
        headers: { authorization: "Bearer mock-token-unrestricted" },
      });
      expect(defaultToken.status).toBe(401);
      const rebuild = await post(
        `${origin}/api/integration/partners/hostpanel/rebuilds`,
        { sourceUrl: "https://www.acme.example.com/" },
        { "x-partner-id": "77", "x-api-key": "acme-rebuild-key" },
      );
      expect(rebuild.status).toBe(202);
      const unknownPartner = await post(
        `${origin}/api/integration/partners/hostpanel/rebuilds`,
        { sourceUrl: "https://www.acme.example.com/" },
        { "x-partner-id": "1001", "x-api-key": "mock-rebuild-key-1001" },
      );
      expect(unknownPartner.status).toBe(401);

      await stop(cli, origin);
      expect(cli.stdout()).not.toMatch(/^(GET|POST) \//m);
    },
    SLOW,
  );

  it.each(["SIGTERM", "SIGINT"] as const)(
    "%s to the npm process alone stops the mock and frees the port within 2 s, leaving no process behind",
    async (signal) => {
      const cli = npmStart(["--port", "0", "--quiet"]);
      const origin = await cli.listening();
      const npmPid = cli.child.pid ?? 0;
      const processes = aliveDescendants(npmPid);
      // npm runs the script through `sh -c "exec node …"`: node is what holds the port.
      expect(processes.length).toBeGreaterThanOrEqual(1);
      process.kill(npmPid, signal);
      const deadline = Date.now() + 2000;
      let portFree = false;
      let left = processes;
      while (Date.now() < deadline && !(portFree && left.length === 0)) {
        portFree = await fetch(`${origin}/__mock/state`).then(
          () => false,
          () => true,
        );
        left = processes.filter((pid) => aliveDescendants(1, [pid]).length > 0);
        if (!(portFree && left.length === 0)) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(portFree).toBe(true);
      expect(left).toEqual([]);
      await cli.exited;
    },
    SLOW,
  );

  it(
    "SIGKILL to npm (nothing can be passed on): the mock notices its parent is gone and stops",
    async () => {
      const cli = npmStart(["--port", "0", "--quiet"]);
      const origin = await cli.listening();
      const processes = aliveDescendants(cli.child.pid ?? 0);
      process.kill(cli.child.pid ?? 0, "SIGKILL");
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && aliveDescendants(1, processes).length > 0) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(aliveDescendants(1, processes)).toEqual([]);
      await expect(fetch(`${origin}/__mock/state`)).rejects.toThrow();
    },
    SLOW,
  );

  it(
    "a port in use is reported with its number and the way out",
    async () => {
      const holder = await startMockServer({ port: 0 });
      try {
        const port = new URL(holder.origin).port;
        const cli = npmStart(["--port", port]);
        expect((await cli.exited).code).toBe(1);
        expect(cli.stderr()).toContain(
          `mock server failed to start: port ${port} on 127.0.0.1 is already in use (another mock still running?); stop it, or pick another port with --port N (--port 0 picks a free one)`,
        );
      } finally {
        await holder.close();
      }
    },
    SLOW,
  );
});
