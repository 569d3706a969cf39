// State that survives restarts (issue 11, point 9): `stateFile` / `--state-file` written atomically
// after changes and on close, resumed on start (a rebuild that fell due while the mock was down
// completes right after), an invalid file refused with its name and the bad values and never
// overwritten; `GET`/`PUT /__mock/snapshot` as scenario fixtures; no raw token secret anywhere.
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createClock, type RunningMockServer, startMockServer } from "../../mocks/node.js";
import { FROZEN_AT, PARTNER, TOKEN } from "../support/default-seed.js";
import { npmStart, stopAll } from "./spawn-cli.js";

const REBUILDS = "/api/integration/partners/hostpanel/rebuilds";
let dir = "";
const running: RunningMockServer[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mock-state-"));
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});
afterAll(async () => {
  await stopAll();
  await rm(dir, { recursive: true, force: true });
});

async function until<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function start(options: Parameters<typeof startMockServer>[0]) {
  const server = await startMockServer({ port: 0, ...options });
  running.push(server);
  return server;
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

async function createToken(server: RunningMockServer, name: string): Promise<string> {
  const answer = await post(
    `${server.dashboardBaseUrl}/dashboard/api-tokens`,
    { name, claims: [] },
    {
      authorization: `Bearer ${TOKEN.unrestricted}`,
    },
  );
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { data: { token: string } }).data.token;
}

describe("stateFile (startMockServer)", () => {
  it("is created at start, rewritten shortly after each change, holds no token secret, leaves no temporary file", async () => {
    const file = join(dir, "in-process.json");
    const server = await start({ clock: createClock({ frozenAt: FROZEN_AT }), stateFile: file });
    expect(server.resumed).toBe(false);
    expect(JSON.parse(await readFile(file, "utf8")).version).toBe(1);
    const secret = await createToken(server, "written soon after");
    const text = await until(async () => {
      const content = await readFile(file, "utf8");
      return content.includes("written soon after") ? content : undefined;
    }, "the state file to hold the new token");
    for (const raw of [secret, TOKEN.unrestricted, TOKEN.manage]) expect(text).not.toContain(raw);
    await server.close();
    running.splice(0);
    expect((await readdir(dir)).filter((name) => name.startsWith(".in-process.json"))).toEqual([]);

    const again = await start({ clock: createClock({ frozenAt: FROZEN_AT }), stateFile: file });
    expect(again.resumed).toBe(true);
    const list = await fetch(`${again.dashboardBaseUrl}/si/servers`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(list.status).toBe(200);
  });

  it.each([
    ["not JSON", "{ nope", /state file .*bad-1\.json is not valid JSON/],
    [
      "not a state",
      JSON.stringify({ hello: 1 }),
      /state file .*bad-2\.json is not a valid mock state: version: is required$/,
    ],
    [
      "another format version",
      JSON.stringify({ version: 9 }),
      /bad-3\.json is not a valid mock state: version: must be 1$/,
    ],
  ])(
    "that is %s refuses the start with its name and the bad value, and is left untouched",
    async (_, content, message) => {
      const index =
        ["{ nope", JSON.stringify({ hello: 1 }), JSON.stringify({ version: 9 })].indexOf(content) + 1;
      const file = join(dir, `bad-${index}.json`);
      await writeFile(file, content);
      await expect(start({ stateFile: file })).rejects.toThrow(message);
      expect(await readFile(file, "utf8")).toBe(content);
    },
  );

  it("a state file that cannot be written refuses the start, naming it", async () => {
    const file = join(dir, "no-such-directory", "state.json");
    await expect(start({ stateFile: file })).rejects.toThrow(`cannot write state file ${file}: ENOENT`);
  });

  it("a bad value deep inside is named by its path", async () => {
    const source = await start({ clock: createClock({ frozenAt: FROZEN_AT }) });
    const snapshot = source.world.snapshot();
    (snapshot.rebuild.partners[0] as { apiKey: string }).apiKey = "has a space";
    const file = join(dir, "bad-deep.json");
    const content = JSON.stringify(snapshot);
    await writeFile(file, content);
    await expect(start({ stateFile: file })).rejects.toThrow(
      /bad-deep\.json is not a valid mock state: rebuild\.partners\.0\.apiKey: must be visible ASCII without spaces/,
    );
    expect(await readFile(file, "utf8")).toBe(content);
  });
});

describe("GET and PUT /__mock/snapshot: save a scenario, load it again", () => {
  it("round-trips the whole world, and a PUT replaces whatever was there", async () => {
    const server = await start({ clock: createClock({ frozenAt: FROZEN_AT }) });
    const secret = await createToken(server, "scenario token");
    await post(
      `${server.origin}${REBUILDS}`,
      { sourceUrl: "https://stall.example.com/" },
      {
        "x-partner-id": PARTNER.ok.id,
        "x-api-key": PARTNER.ok.apiKey,
      },
    );
    const saved = await (await fetch(`${server.origin}/__mock/snapshot`)).text();
    expect(saved).not.toContain(secret);
    const stateThen = await (await fetch(`${server.origin}/__mock/state`)).json();

    expect((await fetch(`${server.origin}/__mock/reset`, { method: "POST" })).status).toBe(204);
    await createToken(server, "made after the save");
    const put = await fetch(`${server.origin}/__mock/snapshot`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: saved,
    });
    expect(put.status).toBe(204);
    expect(await (await fetch(`${server.origin}/__mock/state`)).json()).toEqual(stateThen);
    const list = await fetch(`${server.dashboardBaseUrl}/si/servers`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(list.status).toBe(200);
  });

  it("a PUT of an invalid snapshot is a 400 with field errors, and changes nothing", async () => {
    const server = await start({ clock: createClock({ frozenAt: FROZEN_AT }) });
    const snapshot = server.world.snapshot() as unknown as Record<string, Record<string, unknown>>;
    snapshot.clock = { now: "soon", offsetMs: 0 };
    (snapshot.dashboard as { nextTokenId: unknown }).nextTokenId = 0;
    const before = JSON.stringify(server.world.state());
    const put = await fetch(`${server.origin}/__mock/snapshot`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(snapshot),
    });
    expect(put.status).toBe(400);
    const body = (await put.json()) as { errors: Array<{ type: string; path: string }> };
    expect(body.errors.map((e) => `${e.type}@${e.path}`)).toEqual([
      "invalid_format@clock.now",
      "too_small@dashboard.nextTokenId",
    ]);
    expect(JSON.stringify(server.world.state())).toBe(before);
    const empty = await fetch(`${server.origin}/__mock/snapshot`, { method: "PUT" });
    expect(empty.status).toBe(400);
  });

  it("a PUT may carry more than 1 MiB (a full webhook sink)", async () => {
    const server = await start({ clock: createClock({ frozenAt: FROZEN_AT }) });
    for (let i = 0; i < 3; i++) {
      const answer = await fetch(`${server.origin}/__mock/webhook-sink/${1001 + i}`, {
        method: "POST",
        body: "s".repeat(1024 * 1024 - 10),
      });
      expect(answer.status).toBe(200);
    }
    const saved = await (await fetch(`${server.origin}/__mock/snapshot`)).text();
    expect(saved.length).toBeGreaterThan(3 * 1024 * 1024);
    await fetch(`${server.origin}/__mock/reset`, { method: "POST" });
    const put = await fetch(`${server.origin}/__mock/snapshot`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: saved,
    });
    expect(put.status).toBe(204);
    expect(server.world.listSinkEntries(1003).data).toHaveLength(1);
  });
});

describe("--state-file through npm start: a restart in the middle of a rebuild", () => {
  it("resumes everything; the rebuild that fell due while the mock was down completes right after start", async () => {
    const file = join(dir, "cli.json");
    const first = npmStart(["--port", "0", "--quiet", "--rebuild-delay", "2", "--state-file", file]);
    const origin = await first.listening();
    expect(first.stdout()).toContain(`State file          ${file} (new;`);
    const submitted = await post(
      `${origin}${REBUILDS}`,
      { sourceUrl: "https://www.example.com/" },
      {
        "x-partner-id": PARTNER.ok.id,
        "x-api-key": PARTNER.ok.apiKey,
      },
    );
    expect(submitted.status).toBe(202);
    const { requestId } = (await submitted.json()) as { requestId: string };
    const created = await post(
      `${origin}/v1/dashboard/api-tokens`,
      { name: "survives restarts", claims: [] },
      {
        authorization: `Bearer ${TOKEN.unrestricted}`,
      },
    );
    const secret = ((await created.json()) as { data: { token: string } }).data.token;
    first.signal("SIGTERM");
    await first.exited;

    const saved = JSON.parse(await readFile(file, "utf8"));
    const rebuild = saved.rebuild.rebuilds.find((r: { requestId: string }) => r.requestId === requestId);
    // Stopped before it completed: the premise of this test.
    expect(rebuild).toMatchObject({ status: "running", completesAt: expect.any(String) });
    expect(JSON.stringify(saved)).not.toContain(secret);
    // The mock is down while the rebuild falls due.
    const dueIn = Date.parse(rebuild.completesAt) - (Date.now() + saved.clock.offsetMs);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, dueIn) + 200));

    const second = npmStart(["--port", "0", "--quiet", "--state-file", file]);
    const again = await second.listening();
    expect(second.stdout()).toContain("(resumed from it;");
    const done = await until(async () => {
      const state = (await (await fetch(`${again}/__mock/state`)).json()) as {
        rebuild: { rebuilds: Array<{ requestId: string; status: string }> };
      };
      const found = state.rebuild.rebuilds.find((r) => r.requestId === requestId);
      return found?.status === "success" ? found : undefined;
    }, "the resumed rebuild to complete");
    expect(done.status).toBe("success");
    const sink = (await (await fetch(`${again}/__mock/webhook-sink/1001`)).json()) as {
      data: Array<{ body: { request_id: string } }>;
    };
    expect(sink.data.map((entry) => entry.body.request_id)).toEqual([requestId]);
    const servers = await fetch(`${again}/v1/si/servers`, { headers: { authorization: `Bearer ${secret}` } });
    expect(servers.status).toBe(200);
    second.signal("SIGTERM");
    await second.exited;
    expect(existsSync(file)).toBe(true);
  }, 90_000);

  it("an invalid state file stops the mock with exit 1, naming the file and the bad value, and is not overwritten", async () => {
    const file = join(dir, "cli-bad.json");
    const content = JSON.stringify({ version: 1, clock: { now: "later", offsetMs: 0 } });
    await writeFile(file, content);
    const cli = npmStart(["--port", "0", "--state-file", file]);
    expect((await cli.exited).code).toBe(1);
    expect(cli.stderr()).toContain(
      `mock server failed to start: state file ${file} is not a valid mock state:`,
    );
    expect(cli.stderr()).toContain("clock.now: must be an RFC 3339 date-time");
    expect(cli.stderr()).not.toMatch(/\n\s+at /);
    expect(await readFile(file, "utf8")).toBe(content);
  }, 60_000);
});
