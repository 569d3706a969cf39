import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A CLI process the test started, with everything it printed so far. */
export interface SpawnedCli {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the origin from `Listening on http://…`; rejects if the process exits first. */
  listening(): Promise<string>;
  readonly exited: Promise<Exit>;
  /** Signals the whole process group (npm, its shell, tsx and the server), as Ctrl+C in a terminal does. */
  signal(signal: NodeJS.Signals): void;
}

const started = new Set<SpawnedCli>();

/**
 * Starts `command` in its own process group (so it can be signalled as a whole and nothing it
 * spawns outlives the test), with output collected.
 */
function spawnGroup(command: string, args: readonly string[]): SpawnedCli {
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  let out = "";
  let err = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString("utf8");
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString("utf8");
  });
  const exited = new Promise<Exit>((resolve) => {
    child.on("close", (code, signal) => resolve({ code, signal }));
  });
  const cli: SpawnedCli = {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    listening: () =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          const origin = /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
          if (origin) {
            child.stdout?.off("data", check);
            resolve(origin);
          }
        };
        child.stdout?.on("data", check);
        check();
        void exited.then((exit) =>
          reject(new Error(`exited (${JSON.stringify(exit)}) before listening:\n${out}\n${err}`)),
        );
      }),
    signal(signal) {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid, signal);
        } catch {
          // The group is already gone.
        }
      }
    },
  };
  started.add(cli);
  void exited.then(() => started.delete(cli));
  return cli;
}

/** `npm start -- <args>`, exactly as a developer types it. */
export function npmStart(args: readonly string[]): SpawnedCli {
  return spawnGroup(process.platform === "win32" ? "npm.cmd" : "npm", ["start", "--", ...args]);
}

/**
 * The command behind `npm start`, read from package.json and run without npm or a shell in between,
 * so its own exit status is seen (npm reports a shell killed by the signal instead).
 */
export function startScript(args: readonly string[]): SpawnedCli {
  const pkg = JSON.parse(readFileSync(`${REPO_ROOT}package.json`, "utf8")) as { scripts: { start: string } };
  const [bin = "", ...rest] = pkg.scripts.start.split(/\s+/);
  const command = bin === "node" ? process.execPath : `${REPO_ROOT}node_modules/.bin/${bin}`;
  return spawnGroup(command, [...rest, ...args]);
}

/** Stops whatever the tests left running (after a failed assertion, say). */
export async function stopAll(): Promise<void> {
  const running = [...started];
  for (const cli of running) cli.signal("SIGKILL");
  await Promise.all(running.map((cli) => cli.exited));
}
