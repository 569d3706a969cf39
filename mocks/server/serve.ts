// The bin's default command: the standalone mock server (`npm start`, `npx rebuild-dashboard-kit --port 4010`).
import { startMockServer } from "../http/node-server.js";
import type { MockSeed } from "../world.js";
import { parseArgs, USAGE } from "./args.js";
import { banner } from "./banner.js";
import { UsageError } from "./flags.js";
import { loadSeedFile } from "./load-seed.js";
import { parentGone, runByNpmStart } from "./parent-watch.js";

// How long a stop may take before the process exits anyway (the port is free long before).
const STOP_DEADLINE_MS = 5_000;

async function main(argv: readonly string[], parentLeft: Promise<void> | undefined): Promise<void> {
  const options = parseArgs(argv);
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const seed: MockSeed = options.seedFile ? await loadSeedFile(options.seedFile) : {};
  const running = await startMockServer({
    host: options.host,
    port: options.port,
    seed,
    cors: options.cors,
    corsOrigins: options.corsOrigins,
    allowedHosts: options.allowedHosts,
    ...(options.stateFile === undefined ? {} : { stateFile: options.stateFile }),
    ...(options.rebuildDelaySeconds === undefined
      ? {}
      : { rebuildDelayMs: options.rebuildDelaySeconds * 1000 }),
    ...(options.quiet
      ? {}
      : { onRequest: (e) => console.log(`${e.method} ${e.path} ${e.status} ${e.ms}ms`) }),
    // Printed even with --quiet: each is a bug in the mock, answered 500.
    onInternalError: (error) => console.error("mock: internal error:", error),
  });
  // Handlers first: whoever waits for the "Listening" line may signal at once.
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${why}: stopping`);
    setTimeout(() => process.exit(1), STOP_DEADLINE_MS).unref();
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("mock: stopping failed:", error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  // Under `npm start` only: npm runs the script through `sh -c`, which does not pass a signal on,
  // so when npm goes away the mock goes too (decisions/017, decisions/045). Watched from the
  // bin's first moments: a parent gone during the start stops the mock as soon as it is up.
  void parentLeft?.then(() => stop("parent process exited"));
  console.log(
    banner(running.origin, seed, {
      host: options.host,
      cors: options.cors,
      corsOrigins: options.corsOrigins,
      allowedHosts: options.allowedHosts,
      ...(options.stateFile === undefined ? {} : { stateFile: options.stateFile }),
      resumed: running.resumed,
    }),
  );
  console.log(`Listening on ${running.origin} (Ctrl+C to stop)`);
}

/** Starts the server as `argv` says and keeps it running until a signal or its parent's exit stops it. */
export function serve(argv: readonly string[]): void {
  // Last resort: nothing a client sends may end the process. Whatever slips past the server's own
  // error handling is reported and the server goes on serving.
  process.on("unhandledRejection", (reason) =>
    console.error("mock: unhandled rejection (still serving):", reason),
  );
  process.on("uncaughtException", (error) =>
    console.error("mock: uncaught exception (still serving):", error),
  );
  main(argv, runByNpmStart() ? parentGone() : undefined).catch((error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(`mock server failed to start: ${startFailure(error)}`);
    process.exit(1);
  });
}

/** What went wrong at start, with the way out when there is an obvious one. */
function startFailure(error: unknown): string {
  const { code, port, address } = error as NodeJS.ErrnoException & { port?: number; address?: string };
  if (code === "EADDRINUSE") {
    return `port ${port} on ${address} is already in use (another mock still running?); stop it, or pick another port with --port N (--port 0 picks a free one)`;
  }
  if (code === "EACCES") {
    return `no permission to listen on port ${port} of ${address}; pick a port above 1023 with --port N`;
  }
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND") {
    return `cannot listen on ${address ?? "the --host address"}: it is not an address of this machine (${code}); check --host`;
  }
  return error instanceof Error ? error.message : String(error);
}
