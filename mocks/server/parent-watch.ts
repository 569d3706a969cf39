// How often the CLI checks that whatever started it is still there.
const CHECK_EVERY_MS = 250;

/**
 * Calls `onGone` once the process that started this one has exited (it was re-parented). `npm
 * start` runs the CLI under `sh -c`; a SIGTERM to npm reaches that shell, which exits without
 * passing it on, and the mock would otherwise keep running and holding its port.
 */
export function watchParent(onGone: () => void): void {
  const parent = process.ppid;
  // Started directly by init (a container's PID 1) there is nothing to watch.
  if (parent <= 1) return;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, CHECK_EVERY_MS);
  timer.unref();
}
