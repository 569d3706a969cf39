// How often the CLI checks that whatever started it is still there.
const CHECK_EVERY_MS = 250;

// The process that started this one, read when the bin loads this module (before the server's
// start, which takes a while), so a parent that exits during the start is still noticed.
const STARTED_BY = process.ppid;

/**
 * Whether npm runs the bin as a `start` script's command (`npm start`; npm sets
 * `npm_lifecycle_event` for its scripts). Only there the parent watch is needed: npm runs the script
 * under `sh -c`, and a SIGTERM to npm reaches that shell, which exits without passing it on. A
 * process started directly (`rebuild-dashboard-kit … &` in a shell) must outlive its shell; and a
 * test run's own `npm test` sets `test`, not `start`, for everything it starts.
 */
export function runByNpmStart(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.npm_lifecycle_event === "start";
}

/**
 * Resolves once the process that started this one has exited (this one was re-parented); never
 * when that was init (a container's PID 1), where there is nothing to watch.
 */
export function parentGone(): Promise<void> {
  return new Promise((resolve) => {
    if (STARTED_BY <= 1) return;
    const check = () => {
      if (process.ppid === STARTED_BY) return;
      clearInterval(timer);
      resolve();
    };
    const timer = setInterval(check, CHECK_EVERY_MS);
    timer.unref();
    check();
  });
}
