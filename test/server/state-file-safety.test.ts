// The state file against a hostile or careless world (issue 22, points 1, 3 and 4): a request in the
// first instant after binding is answered; a second server on the same file refuses to start, naming
// the file and the holder, while a stale lock does not block; temporary files are created
// exclusively and never through a link, orphans of a killed server are removed; a linked state file
// is followed (the link stays), a link to nothing refused.
import { spawnSync } from "node:child_process";
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTemporary } from "../../mocks/http/state-file-temp.js";
import { createClock, type RunningMockServer, startMockServer } from "../../mocks/node.js";
import { FROZEN_AT, TOKEN } from "../support/default-seed.js";

let dir = "";
const running: RunningMockServer[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mock-state-safety-"));
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function start(options: Parameters<typeof startMockServer>[0]) {
  const server = await startMockServer({ port: 0, clock: createClock({ frozenAt: FROZEN_AT }), ...options });
  running.push(server);
  return server;
}

const createToken = (server: RunningMockServer, name: string) =>
  fetch(`${server.dashboardBaseUrl}/dashboard/api-tokens`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN.unrestricted}` },
    body: JSON.stringify({ name, claims: [] }),
  });

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe("startup (issue 22, point 1)", () => {
  it("answers the first connection a readiness loop makes while a new state file is written", async () => {
    for (let run = 0; run < 3; run++) {
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      const starting = startMockServer({ port, stateFile: join(dir, `startup-${run}.json`) });
      let status: number | undefined;
      // A readiness loop: a refused connection is retried at once; the first accepted one must be answered.
      for (let attempt = 0; attempt < 5_000 && status === undefined; attempt++) {
        try {
          // Far longer than a loaded machine's first answer; the hang this catches is forever.
          status = (await fetch(`${origin}/__mock/state`, { signal: AbortSignal.timeout(10_000) })).status;
        } catch (error) {
          const cause = (error as { cause?: { code?: string } }).cause;
          if (cause?.code !== "ECONNREFUSED") throw error;
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      running.push(await starting);
      expect(status).toBe(200);
    }
  }, 60_000);
});

describe("durability (issue 22, point 2)", () => {
  it("a change whose state file cannot be written is answered 500, never 2xx", async () => {
    const sub = join(dir, "vanishing");
    await mkdir(sub);
    const reported: unknown[] = [];
    const server = await start({
      stateFile: join(sub, "state.json"),
      onInternalError: (e) => reported.push(e),
    });
    await rm(sub, { recursive: true });
    const answer = await createToken(server, "cannot be kept");
    expect(answer.status).toBe(500);
    expect(String(reported[0])).toContain("cannot write state file");
    // Once it can be written again, changes are acknowledged again.
    await mkdir(sub);
    expect((await createToken(server, "kept")).status).toBe(201);
    expect(await readFile(join(sub, "state.json"), "utf8")).toContain("kept");
  });
});

describe("one server per state file (issue 22, point 3)", () => {
  it("a second server on the same file refuses to start, naming the file and the holder's pid", async () => {
    const file = join(dir, "shared.json");
    const first = await start({ stateFile: file });
    await expect(start({ stateFile: file })).rejects.toThrow(
      `state file ${file} is in use by another mock server (pid ${process.pid}, lock file ${file}.lock)`,
    );
    // The first is untouched and still writes.
    expect((await createToken(first, "still mine")).status).toBe(201);
    expect(await readFile(file, "utf8")).toContain("still mine");
    await first.close();
    running.splice(0);
    // Released on close.
    await expect(lstat(`${file}.lock`)).rejects.toThrow(/ENOENT/);
    await start({ stateFile: file });
  });

  it("a stale lock (its process gone) does not block a start", async () => {
    const file = join(dir, "stale.json");
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    await writeFile(`${file}.lock`, `${gone}\n`);
    const server = await start({ stateFile: file });
    expect((await readFile(`${file}.lock`, "utf8")).trim()).toBe(String(process.pid));
    expect((await createToken(server, "after a stale lock")).status).toBe(201);
  });
});

describe("one server per state file, started all at once over a stale lock", () => {
  it("exactly one of several servers starting at the same moment takes it", async () => {
    const file = join(dir, "race.json");
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    await writeFile(`${file}.lock`, `${gone}\n`);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, () =>
        startMockServer({ port: 0, clock: createClock({ frozenAt: FROZEN_AT }), stateFile: file }),
      ),
    );
    const started = outcomes.flatMap((o) => (o.status === "fulfilled" ? [o.value] : []));
    running.push(...started);
    expect(started).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === "rejected")
        expect(String(outcome.reason)).toContain("is in use by another mock server");
    }
  });
});

describe("temporary files and links (issue 22, point 4)", () => {
  it("a temporary file is never opened through a link, and never opens what exists", async () => {
    const victim = join(dir, "victim.txt");
    await writeFile(victim, "untouched");
    const planted = join(dir, ".planted.tmp");
    await symlink(victim, planted);
    await expect(createTemporary(planted)).rejects.toThrow(/EEXIST/);
    await expect(createTemporary(victim)).rejects.toThrow(/EEXIST/);
    expect(await readFile(victim, "utf8")).toBe("untouched");
  });

  it("a link planted at the old predictable temporary name is not followed; the file is 0600; no temporary file stays", async () => {
    const file = join(dir, "planted.json");
    const victim = join(dir, "planted-victim.txt");
    await writeFile(victim, "untouched");
    for (let counter = 0; counter < 4; counter++) {
      await symlink(victim, join(dir, `.planted.json.${process.pid}.${counter}.tmp`));
    }
    const server = await start({ stateFile: file });
    expect((await createToken(server, "not into the link")).status).toBe(201);
    expect(await readFile(victim, "utf8")).toBe("untouched");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, "utf8")).toContain("not into the link");
    await server.close();
    running.splice(0);
    // The planted links went with the orphans at start; the server's own temporary files are renamed.
    expect((await readdir(dir)).filter((name) => name.startsWith(".planted.json."))).toEqual([]);
  });

  it("the temporary files a killed server left are removed at the next start", async () => {
    const file = join(dir, "orphans.json");
    const orphans = [".orphans.json.4242.0.tmp", ".orphans.json.4242.9f3a2b1c0d4e5f60.tmp"];
    for (const name of orphans) await writeFile(join(dir, name), '{"partner keys":"inside"}');
    await writeFile(join(dir, "orphans.json.keep.tmp"), "not ours");
    await start({ stateFile: file });
    const names = await readdir(dir);
    for (const name of orphans) expect(names).not.toContain(name);
    expect(names).toContain("orphans.json.keep.tmp");
  });

  it("a state file that is a link is followed: its target resumed and rewritten, the link kept", async () => {
    const target = join(dir, "real-state.json");
    const link = join(dir, "linked-state.json");
    const first = await start({ stateFile: target });
    await first.close();
    running.splice(0);
    await symlink(target, link);
    const server = await start({ stateFile: link });
    expect(server.resumed).toBe(true);
    expect((await createToken(server, "through the link")).status).toBe(201);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readFile(target, "utf8")).toContain("through the link");
  });

  it("a link to nothing is refused with a message, and nothing is created at its target", async () => {
    const missing = join(dir, "nowhere", "..", "missing-target.json");
    const link = join(dir, "dangling.json");
    await symlink(missing, link);
    await expect(start({ stateFile: link })).rejects.toThrow(
      `state file ${link} is a symbolic link to ${missing}, which does not exist`,
    );
    await expect(lstat(join(dir, "missing-target.json"))).rejects.toThrow(/ENOENT/);
  });
});
