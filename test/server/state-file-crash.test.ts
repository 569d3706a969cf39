// Nothing acknowledged is lost (issue 22, points 2 and 3): a mock started with --state-file is
// SIGKILLed at fixed-seed random points, each right after one of its 2xx answers while other
// changes are in flight, and restarted on the same file (the killed server's lock is stale); every
// rebuild and token it acknowledged is there, and resubmitting an acknowledged sourceUrl gives the
// same requestId (200). A second server on the file meanwhile refuses to start, naming the first.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultRebuildSeed } from "../../mocks/domain/rebuild/index.js";
import { PARTNER, TOKEN } from "../support/default-seed.js";
import { type SpawnedCli, startScript, stopAll } from "./spawn-cli.js";

const REBUILDS = "/api/integration/partners/hostpanel/rebuilds";
const ROUNDS = 4;
const LANES = 3;

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mock-state-crash-"));
});
afterAll(async () => {
  await stopAll();
  await rm(dir, { recursive: true, force: true });
});

/** mulberry32: the kill points are the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const json = { "content-type": "application/json" };
const partner = { "x-partner-id": PARTNER.ok.id, "x-api-key": PARTNER.ok.apiKey };

const submit = (origin: string, sourceUrl: string) =>
  fetch(`${origin}${REBUILDS}`, {
    method: "POST",
    headers: { ...json, ...partner },
    body: JSON.stringify({ sourceUrl }),
  });
const createToken = (origin: string, name: string) =>
  fetch(`${origin}/v1/dashboard/api-tokens`, {
    method: "POST",
    headers: { ...json, authorization: `Bearer ${TOKEN.unrestricted}` },
    body: JSON.stringify({ name, claims: [] }),
  });

describe("--state-file: SIGKILL right after a 2xx loses nothing", () => {
  it("keeps every acknowledged rebuild (idempotency included) and token across kills at random points", async () => {
    const file = join(dir, "state.json");
    const seedFile = join(dir, "seed.json");
    // The default partner allows 30 submissions an hour: this run makes more.
    const partners = defaultRebuildSeed.partners.map((p) =>
      String(p.id) === PARTNER.ok.id ? { ...p, rateLimitPerHour: 1_000_000 } : p,
    );
    await writeFile(seedFile, JSON.stringify({ rebuild: { partners } }));
    const next = random(22);
    const rebuilds = new Map<string, string>();
    const tokens = new Map<string, string>();
    const launch = () => startScript(["--port", "0", "--quiet", "--seed", seedFile, "--state-file", file]);

    const verify = async (origin: string) => {
      for (const [sourceUrl, requestId] of rebuilds) {
        const again = await submit(origin, sourceUrl);
        expect(again.status, `${sourceUrl}: ${again.status === 200 ? "" : await again.clone().text()}`).toBe(
          200,
        );
        expect(((await again.json()) as { requestId: string }).requestId, sourceUrl).toBe(requestId);
      }
      for (const [name, secret] of tokens) {
        const servers = await fetch(`${origin}/v1/si/servers`, {
          headers: { authorization: `Bearer ${secret}` },
        });
        expect(servers.status, name).toBe(200);
      }
    };

    for (let round = 0; round < ROUNDS; round++) {
      const cli: SpawnedCli = launch();
      const origin = await cli.listening();
      await verify(origin);
      const killAfter = 1 + Math.floor(next() * 10);
      let acknowledged = 0;
      let killed = false;
      const acknowledge = () => {
        acknowledged++;
        // At once, on the turn the answer arrived: the other lanes' changes are in flight.
        if (acknowledged === killAfter) {
          killed = true;
          cli.signal("SIGKILL");
        }
      };
      const lane = async (laneNo: number) => {
        for (let step = 0; !killed && step < 50; step++) {
          const key = `r${round}-l${laneNo}-s${step}`;
          try {
            if (next() < 0.6) {
              const sourceUrl = `https://crash-${key}.example.com/`;
              const answer = await submit(origin, sourceUrl);
              if (answer.status !== 202) throw new Error(`submission answered ${answer.status}`);
              const { requestId } = (await answer.json()) as { requestId: string };
              rebuilds.set(sourceUrl, requestId);
            } else {
              const answer = await createToken(origin, key);
              if (answer.status !== 201) throw new Error(`token creation answered ${answer.status}`);
              tokens.set(key, ((await answer.json()) as { data: { token: string } }).data.token);
            }
            acknowledge();
          } catch (error) {
            // Cut off by the kill: not acknowledged, so nothing is promised about it.
            if (!killed) throw error;
          }
        }
      };
      await Promise.all(Array.from({ length: LANES }, (_, i) => lane(i)));
      expect(killed).toBe(true);
      expect((await cli.exited).signal).toBe("SIGKILL");
    }
    const last = launch();
    await verify(await last.listening());
    const second = launch();
    const outcome = await Promise.race([
      second.exited,
      second.listening().then(
        () => "listening",
        () => "exited",
      ),
    ]);
    second.signal("SIGKILL");
    expect(outcome).toEqual({ code: 1, signal: null });
    expect(second.stderr()).toContain(
      `state file ${file} is in use by another mock server (pid ${last.child.pid}`,
    );
    expect(rebuilds.size + tokens.size).toBeGreaterThanOrEqual(ROUNDS);
    last.signal("SIGTERM");
    await last.exited;
  }, 120_000);
});
