export const DEFAULT_ERROR_CODE = "process_failed";
export const DEFAULT_ERROR_MESSAGE = "The rebuild process failed: the source site could not be recreated.";

/** How a rebuild ends. `null` error fields leave them out of the callback. */
export type Outcome =
  | { status: "success" }
  | { status: "failed"; errorCode: string | null; errorMessage: string | null };

// Shared by every rebuild that waits for its completion, so none keeps an outcome object of its own.
const SUCCESS: Outcome = Object.freeze({ status: "success" });
const SCRIPTED_FAILURE: Outcome = Object.freeze({
  status: "failed",
  errorCode: DEFAULT_ERROR_CODE,
  errorMessage: DEFAULT_ERROR_MESSAGE,
});

/**
 * How a rebuild of `hostname` ends on its own, chosen so tests and demos can steer it: a host
 * starting with `fail.` fails, one starting with `stall.` never ends on its own (undefined; the
 * control API completes it), any other succeeds.
 */
export function scriptedOutcome(hostname: string): Outcome | undefined {
  if (hostname.startsWith("stall.")) return undefined;
  return hostname.startsWith("fail.") ? SCRIPTED_FAILURE : SUCCESS;
}
