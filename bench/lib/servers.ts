import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { defaultRebuildSeed } from "../../mocks/domain/rebuild/index.js";
import { ROOT } from "./build.js";
import { type Child, startChild } from "./children.js";
import { freePort, getOnce, waitFor200 } from "./http.js";

export const DASHBOARD_TOKEN = "mock-token-unrestricted";
export const AUTH = { authorization: `Bearer ${DASHBOARD_TOKEN}` };
export const PARTNER = { id: 1001, apiKey: "mock-rebuild-key-1001" };
const PRISM_CLI = join(ROOT, "node_modules/@stoplight/prism-cli/dist/index.js");

export interface RunningServer {
  origin: string;
  child: Child;
}

/** The bench's seed: the default one, with partner 1001 allowed far more than 30 requests per hour. */
export async function writeBenchSeed(dir: string): Promise<string> {
  const partners = defaultRebuildSeed.partners.map((partner) =>
    partner.id === PARTNER.id ? { ...partner, rateLimitPerHour: 1_000_000 } : partner,
  );
  const path = join(dir, "bench-seed.json");
  await writeFile(path, JSON.stringify({ rebuild: { partners } }));
  return path;
}

async function ready(child: Child, url: string, headers: Record<string, string>, timeoutMs: number) {
  await waitFor200(url, headers, {
    timeoutMs,
    intervalMs: 20,
    exited: () => child.process.exitCode !== null,
    describe: child.output,
  });
}

/** Our mock, compiled, under plain node: quiet (no request log), as `npm start -- --quiet` would run. */
export async function startMock(cli: string, extraArgs: readonly string[] = []): Promise<RunningServer> {
  const port = await freePort();
  const child = startChild(process.execPath, [cli, "--port", String(port), "--quiet", ...extraArgs]);
  const origin = `http://127.0.0.1:${port}`;
  await ready(child, `${origin}/v1/si/servers`, AUTH, 15_000);
  return { origin, child };
}

/** The ceiling, answering GET with `getBody`. */
export async function startCeiling(script: string, getBody: string): Promise<RunningServer> {
  const port = await freePort();
  const child = startChild(process.execPath, [script], {
    BENCH_PORT: String(port),
    BENCH_GET_BODY: getBody,
  });
  const origin = `http://127.0.0.1:${port}`;
  await ready(child, `${origin}/v1/si/servers`, {}, 15_000);
  return { origin, child };
}

/**
 * Prism serving the dashboard contract, started with node directly (npx would add its own start-up
 * time). Its request log is limited to errors, as ours is off: logging is not what is compared.
 */
export function prismArgs(port: number): string[] {
  return [
    PRISM_CLI,
    "mock",
    join(ROOT, "openapi/dashboard.yaml"),
    "-p",
    String(port),
    "-h",
    "127.0.0.1",
    "--verboseLevel",
    "error",
  ];
}

/** Prism serves the contract's paths without the `/v1` of the server URL. */
export const PRISM_SERVERS_PATH = "/si/servers";

export async function startPrism(): Promise<RunningServer> {
  const port = await freePort();
  const child = startChild(process.execPath, prismArgs(port));
  const origin = `http://127.0.0.1:${port}`;
  await ready(child, `${origin}${PRISM_SERVERS_PATH}`, AUTH, 60_000);
  return { origin, child };
}

/** The mock's servers list as it answers it, byte for byte: what the ceiling will return. */
export async function fetchServersBody(mockOrigin: string): Promise<string> {
  const answer = await getOnce(`${mockOrigin}/v1/si/servers`, AUTH);
  if (answer?.status !== 200) throw new Error(`mock answered ${answer?.status} to GET /v1/si/servers`);
  return answer.body;
}
