// The SDK under Bun and Deno, both fetched from the npm registry with npx (the runtimes are not
// dependencies of this package): the built SDK (dist/, built first when missing or stale) against the
// standalone mock. Node 20 and 24 run the whole suite instead (.ci/run).
import { execFile } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningMockServer, startMockServer } from "../../mocks/node.js";
import { ensureBuilt } from "../support/built-package.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const script = join(root, "test", "runtimes", "sdk-smoke.mjs");
const execFileAsync = promisify(execFile);

const RUNTIMES = [
  { name: "Bun", npx: ["-p", "bun@1", "bun", "run", script] },
  {
    name: "Deno",
    npx: ["-p", "deno@2", "deno", "run", "--allow-net", "--allow-read", "--allow-env", script],
  },
] as const;

let mock: RunningMockServer;

beforeAll(ensureBuilt, 240_000);

beforeEach(async () => {
  mock = await startMockServer({ port: 0 });
});

afterEach(async () => {
  await mock.close();
});

describe.each(RUNTIMES)("the SDK under $name", ({ name, npx }) => {
  it("lists servers, submits a rebuild and verifies its callback", async () => {
    let stdout: string;
    try {
      ({ stdout } = await execFileAsync("npx", ["-y", ...npx, mock.origin], {
        cwd: root,
        timeout: 150_000,
        env: { ...process.env, NO_COLOR: "1", npm_config_loglevel: "error" },
      }));
    } catch (error) {
      const { stdout: out, stderr } = error as { stdout?: string; stderr?: string };
      throw new Error(`${name} failed:\n${out ?? ""}\n${stderr ?? ""}`, { cause: error });
    }
    const result = JSON.parse(stdout.trim().split("\n").at(-1) ?? "");
    expect(result).toEqual({
      totalCount: 3,
      created: true,
      requestId: expect.any(String),
      callback: { requestId: result.requestId, status: "success" },
    });
  }, 160_000);
});
