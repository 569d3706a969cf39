import { open, readFile, rename, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { jsonDepth, MAX_JSON_DEPTH } from "../domain/validation/json-depth.js";
import { jsonChunks } from "./json-chunks.js";
import { createTemporary, temporaryPath } from "./state-file-temp.js";

/**
 * Reads a state file (`--state-file`): its parsed JSON, or undefined when there is no such file.
 * Anything else that is wrong (unreadable, not JSON, nested too deep) is an Error naming the file;
 * whether the JSON is a valid state is for `world.restore` to say. `shown` is the name messages use
 * (the path as given, where `path` is the link resolved).
 */
export async function readStateFile(path: string, shown = path): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    throw new Error(`cannot read state file ${shown}: ${code ?? String(error)}`);
  }
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    throw new Error(`state file ${shown} nests deeper than ${MAX_JSON_DEPTH} levels: it is not a mock state`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`state file ${shown} is not valid JSON: ${(error as Error).message}`);
  }
}

export interface StateFileWriter {
  /** Something changed: a write starts at once, or right after the one in progress (group commit). */
  changed(): void;
  /**
   * Undefined when every change so far is on disk; else a promise that resolves once they are (the
   * write that covers them finished: file and directory synced), or rejects when that write failed.
   */
  durable(): Promise<void> | undefined;
  /** Writes now, after any write in progress, whether or not something changed; rejects when the write fails. */
  flush(): Promise<void>;
}

export interface StateFileWriterOptions {
  /** Gets a failed write nobody waits for (disk full, directory gone); the mock keeps serving and retries at the next change. */
  onError?: (error: unknown) => void;
}

interface Waiter {
  /** The change count it waits to see on disk. */
  upTo: number;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Writes `snapshot()` to `path` (resolved: no link) after every change, atomically: into a new
 * temporary file beside it (state-file-temp.ts), synced, renamed over `path`, then the directory
 * synced, so a crash at any moment leaves the previous state or the new one whole, and a finished
 * write survives a power cut. One write at a time; every change made while one runs is covered by
 * the next (group commit: one write and two syncs for all the answers waiting). The file holds
 * partner keys, so it is readable by its owner only.
 */
export function createStateFileWriter(
  path: string,
  snapshot: () => unknown,
  options: StateFileWriterOptions = {},
): StateFileWriter {
  let changes = 0;
  let onDisk = 0;
  let writing = false;
  let scheduled = false;
  let waiters: Waiter[] = [];

  const settle = (upTo: number, error?: unknown) => {
    const done = waiters.filter((w) => w.upTo <= upTo);
    waiters = waiters.filter((w) => w.upTo > upTo);
    for (const waiter of done) {
      if (error === undefined) waiter.resolve();
      else waiter.reject(error);
    }
    return done.length;
  };

  const run = () => {
    scheduled = false;
    if (writing || (onDisk === changes && waiters.length === 0)) return;
    writing = true;
    const upTo = changes;
    // Taken now (a throw becomes a failed write): every change up to `upTo` is in it.
    new Promise<Iterable<string>>((resolve) => resolve(serialize(snapshot())))
      .then((text) => writeAtomically(path, text))
      .then(
        () => {
          onDisk = upTo;
          settle(upTo);
          writing = false;
          if (onDisk < changes) schedule();
        },
        (error: unknown) => {
          const code = (error as NodeJS.ErrnoException).code;
          const failure = new Error(`cannot write state file ${path}: ${code ?? String(error)}`, {
            cause: error,
          });
          const told = settle(upTo, failure);
          if (told === 0) options.onError?.(failure);
          writing = false;
          // No retry in a loop on a full disk: the next change, or the next one waiting, tries again.
          if (waiters.length > 0) schedule();
        },
      );
  };

  const schedule = () => {
    if (scheduled || writing) return;
    scheduled = true;
    // After the current turn: the changes of everything answered in it share one write.
    setImmediate(run);
  };

  const durable = (): Promise<void> | undefined => {
    if (onDisk === changes) return undefined;
    const upTo = changes;
    return new Promise<void>((resolve, reject) => {
      waiters.push({ upTo, resolve, reject });
      schedule();
    });
  };

  return {
    changed() {
      changes++;
      schedule();
    },
    durable,
    // Not a change: an answer does not wait for this write (the first one at start, say) unless a
    // change of its own is in it.
    flush: () =>
      new Promise<void>((resolve, reject) => {
        waiters.push({ upTo: changes, resolve, reject });
        schedule();
      }),
  };
}

/**
 * The state as JSON text: one native JSON.stringify (several times faster than streaming it), or,
 * for a state too large for one string, 1 MiB pieces.
 */
function serialize(state: unknown): Iterable<string> {
  try {
    return [`${JSON.stringify(state)}\n`];
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return (function* () {
      yield* jsonChunks(state, 1024 * 1024);
      yield "\n";
    })();
  }
}

async function writeAtomically(path: string, text: Iterable<string>): Promise<void> {
  const temporary = temporaryPath(path);
  const file = await createTemporary(temporary);
  try {
    for (const piece of text) await file.write(piece);
    await file.sync();
    await file.close();
    await rename(temporary, path);
  } catch (error) {
    await file.close().catch(() => undefined);
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  // The rename is durable once the directory is: without this a power cut may bring back the old file.
  // Windows cannot open a directory to sync it (NTFS journals the rename itself).
  if (process.platform === "win32") return;
  const directory = await open(dirname(path), "r");
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}
