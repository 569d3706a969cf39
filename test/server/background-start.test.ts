// The bin started directly in the background of a shell that then exits (`bash -c 'rebuild-dashboard-kit
// … & …'`) keeps serving: the parent watch that stops the mock when npm goes away applies under
// `npm start` only (mocks/server/parent-watch.ts; npm-start.test.ts shows it there). The shell here
// exits only once the mock listens, so the mock has certainly seen its parent before it goes.
import { spawn } from "node:child_process";
import { describe, expect, it, onTestFinished } from "vitest";
import { REPO_ROOT } from "./spawn-cli.js";

// tsx boots in seconds on a busy machine.
const SLOW = 60_000;
// The watch checks every 250 ms: a mock that would stop has stopped well within this.
const WATCH_TIME_MS = 1_500;

async function startInBackgroundThenExitShell(env: NodeJS.ProcessEnv) {
  const shell = spawn(
    "bash",
    [
      "-c",
      `"${process.execPath}" --import tsx mocks/server/cli.ts --port 0 --quiet & echo "pid $!"; read -r _`,
    ],
    { cwd: REPO_ROOT, env: { ...env, NO_COLOR: "1" }, stdio: ["pipe", "pipe", "pipe"] },
  );
  let out = "";
  shell.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString("utf8");
  });
  const shellExited = new Promise<void>((resolve) => shell.once("exit", () => resolve()));
  const deadline = Date.now() + SLOW - 10_000;
  while (!/Listening on http:\/\/127\.0\.0\.1:\d+/.test(out) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const pid = Number(/^pid (\d+)$/m.exec(out)?.[1]);
  onTestFinished(() => {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  });
  const origin = /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
  if (!origin) throw new Error(`the mock never listened:\n${out}`);
  // The shell's `read` returns: it exits, and the mock is re-parented.
  shell.stdin.end("\n");
  await shellExited;
  await new Promise((resolve) => setTimeout(resolve, WATCH_TIME_MS));
  return origin;
}

/** The environment of a plain shell: no npm script variables. */
function withoutNpm(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("npm_")));
}

describe("the bin started in the background of a shell", () => {
  it.each([
    ["a plain shell", withoutNpm()],
    // What a test suite run by `npm test` passes on to everything it starts.
    ["a shell inside `npm test`", { ...withoutNpm(), npm_lifecycle_event: "test" }],
  ])(
    "keeps serving after %s exits",
    async (_name, env) => {
      const origin = await startInBackgroundThenExitShell(env);
      const response = await fetch(`${origin}/v1/si/servers`, {
        headers: { authorization: "Bearer mock-token-unrestricted" },
      });
      expect(response.status).toBe(200);
    },
    SLOW,
  );
});
