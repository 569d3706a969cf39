#!/usr/bin/env node
import { startMockServer } from "../http/node-server.js";
import type { MockSeed } from "../world.js";
import { parseArgs, USAGE, UsageError } from "./args.js";
import { banner } from "./banner.js";
import { loadSeedFile } from "./load-seed.js";

async function main(argv: readonly string[]): Promise<void> {
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
    ...(options.rebuildDelaySeconds === undefined
      ? {}
      : { rebuildDelayMs: options.rebuildDelaySeconds * 1000 }),
    ...(options.quiet
      ? {}
      : { onRequest: (e) => console.log(`${e.method} ${e.path} ${e.status} ${e.ms}ms`) }),
    onInternalError: (error) => console.error("internal mock error:", error),
  });
  // Handlers first: whoever waits for the "Listening" line may signal at once.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping`);
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  console.log(banner(running.origin, seed));
  console.log(`Listening on ${running.origin} (Ctrl+C to stop)`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  const code = (error as NodeJS.ErrnoException).code;
  console.error(
    `mock server failed to start: ${code === "EADDRINUSE" ? "address already in use" : (error as Error).message}`,
  );
  process.exit(1);
});
