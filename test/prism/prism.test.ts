// `npm run mock:prism`: both contracts served by Prism from their examples, and stopped together.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/free-port.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

let child: ChildProcess;
let output = "";
let dashboard: string;
let rebuild: string;

beforeAll(async () => {
  const [dashboardPort, rebuildPort] = [await freePort(), await freePort()];
  dashboard = `http://127.0.0.1:${dashboardPort}`;
  rebuild = `http://127.0.0.1:${rebuildPort}`;
  // One node process (tsx as a loader, not its wrapper) so the signal reaches the script itself.
  child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/prism.ts",
      "--dashboard-port",
      String(dashboardPort),
      "--rebuild-port",
      String(rebuildPort),
    ],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const deadline = Date.now() + 50_000;
  while ((output.match(/Prism is listening/g) ?? []).length < 2) {
    if (child.exitCode !== null) throw new Error(`mock:prism exited early:\n${output}`);
    if (Date.now() > deadline) throw new Error(`Prism did not start in time:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 60_000);

afterAll(() => {
  if (child?.exitCode === null) child.kill("SIGKILL");
});

describe("npm run mock:prism", () => {
  it("serves the dashboard list example to a bearer request and 401 without one", async () => {
    const ok = await fetch(`${dashboard}/si/servers`, {
      headers: { Authorization: "Bearer any-token" },
    });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { totalCount: number; data: unknown[] };
    expect(body.totalCount).toBe(3);
    expect(body.data).toHaveLength(3);
    const anonymous = await fetch(`${dashboard}/si/servers`);
    expect(anonymous.status).toBe(401);
  });

  it("answers a rebuild submission from examples, the status chosen by Prefer, not by state", async () => {
    const submit = (prefer?: string) =>
      fetch(`${rebuild}/api/integration/partners/hostpanel/rebuilds`, {
        method: "POST",
        headers: {
          "X-Partner-Id": "1001",
          "X-API-Key": "any-key",
          "Content-Type": "application/json",
          ...(prefer ? { Prefer: prefer } : {}),
        },
        body: JSON.stringify({ sourceUrl: "https://www.example.com/" }),
      });
    // Stateless: Prism picks the lowest documented 2xx, so even a first submission gets the
    // "existing request" 200; the stateful mock answers 202 here.
    const first = await submit();
    expect(first.status).toBe(200);
    await first.body?.cancel();
    const accepted = await submit("code=202");
    expect(accepted.status).toBe(202);
    expect(await accepted.json()).toMatchObject({ status: "running" });
  });

  it("stops both Prism processes on SIGTERM", async () => {
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    const [code] = await exited;
    expect(code).toBe(0);
    for (const origin of [dashboard, rebuild]) {
      await expect(fetch(`${origin}/`)).rejects.toThrow();
    }
  }, 20_000);
});
