import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

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
  // `exec` is the shell's: it makes the shell npm starts become node, so signals reach it.
  const [bin = "", ...rest] = pkg.scripts.start.replace(/^exec\s+/, "").split(/\s+/);
  const command = bin === "node" ? process.execPath : `${REPO_ROOT}node_modules/.bin/${bin}`;
  return spawnGroup(command, [...rest, ...args]);
}

/** Stops whatever the tests left running (after a failed assertion, say). */
export async function stopAll(): Promise<void> {
  const running = [...started];
  for (const cli of running) cli.signal("SIGKILL");
  await Promise.all(running.map((cli) => cli.exited));
}

/** Parent pid and state of every process, from /proc (Linux). */
function processTable(): Map<number, { ppid: number; state: string }> {
  const table = new Map<number, { ppid: number; state: string }>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // The command name is in parentheses and may hold spaces: the fields follow the last ")".
      const [state = "", ppid = "0"] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      table.set(Number(name), { ppid: Number(ppid), state });
    } catch {
      // The process ended while the table was read.
    }
  }
  return table;
}

/**
 * The live (not zombie) processes among `pids`, or, without `pids`, among the descendants of
 * `root`: what would still hold a port or keep running.
 */
export function aliveDescendants(root: number, pids?: readonly number[]): number[] {
  const table = processTable();
  const alive = (pid: number) => {
    const entry = table.get(pid);
    return entry !== undefined && entry.state !== "Z" && entry.state !== "X";
  };
  if (pids) return pids.filter(alive);
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const [pid, entry] of table) {
      if (entry.ppid === parent) {
        found.push(pid);
        queue.push(pid);
      }
    }
  }
  return found.filter(alive);
}
