import { type ChildProcess, spawn } from "node:child_process";

/**
 * Every process the bench starts, so all of them (Prism included) are stopped on success, on a
 * failure and on Ctrl+C.
 */
const running = new Set<ChildProcess>();

export interface Child {
  readonly process: ChildProcess;
  /** Everything it wrote so far (stdout and stderr), for error messages. */
  output(): string;
  stop(): Promise<void>;
}

export function startChild(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Child {
  const child = spawn(command, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  running.add(child);
  let output = "";
  const keep = (chunk: Buffer) => {
    // Only the tail matters for a diagnosis; a chatty child must not grow the bench's memory.
    output = (output + chunk.toString("utf8")).slice(-4000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  child.on("exit", () => running.delete(child));
  return { process: child, output: () => output, stop: () => stopChild(child) };
}

/** SIGTERM, then SIGKILL after 2 s; resolves once the process has exited. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    running.delete(child);
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 2000);
    child.once("exit", () => {
      clearTimeout(force);
      running.delete(child);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

export async function stopAllChildren(): Promise<void> {
  await Promise.all([...running].map(stopChild));
}

/** Last resort when the bench itself is exiting: no waiting possible, so SIGKILL what is left. */
export function installExitGuards(): void {
  process.on("exit", () => {
    for (const child of running) child.kill("SIGKILL");
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping the bench's servers`);
      void stopAllChildren().finally(() => process.exit(130));
    });
  }
}
