import { abortError } from "./errors.js";

// setTimeout fires at once for delays beyond a signed 32-bit int; clamp so "Infinity" means "never".
const MAX_DELAY_MS = 2 ** 31 - 1;

/** `setTimeout` that treats huge delays as "practically never" instead of "now". */
export function startTimer(ms: number, run: () => void): ReturnType<typeof setTimeout> {
  return setTimeout(run, Math.min(Math.max(ms, 0), MAX_DELAY_MS));
}

/** Resolves after `ms`; rejects with an AbortError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    const timer = startTimer(ms, () => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    });
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
