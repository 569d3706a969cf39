import { open, readFile, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { jsonDepth, MAX_JSON_DEPTH } from "../domain/validation/json-depth.js";
import { jsonChunks } from "./json-chunks.js";

/**
 * Reads a state file (`--state-file`): its parsed JSON, or undefined when there is no such file.
 * Anything else that is wrong (unreadable, not JSON, nested too deep) is an Error naming the file;
 * whether the JSON is a valid state is for `world.restore` to say.
 */
export async function readStateFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    throw new Error(`cannot read state file ${path}: ${code ?? String(error)}`);
  }
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    throw new Error(`state file ${path} nests deeper than ${MAX_JSON_DEPTH} levels: it is not a mock state`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`state file ${path} is not valid JSON: ${(error as Error).message}`);
  }
}

export interface StateFileWriter {
  /** Something changed: the file is written once things are quiet for a moment (debounced). */
  changed(): void;
  /** Writes now, after any write in progress; rejects when the write fails. */
  flush(): Promise<void>;
  /** Stops the timers and writes one last time. */
  close(): Promise<void>;
}

export interface StateFileWriterOptions {
  /** Quiet time after a change before writing (default 250 ms). */
  debounceMs?: number;
  /** Longest a change waits under a steady stream of changes (default 2000 ms). */
  maxWaitMs?: number;
  /** Gets a failed background write (disk full, directory gone); the mock keeps serving and retries at the next change. */
  onError?: (error: unknown) => void;
}

/**
 * Writes `snapshot()` to `path` shortly after changes and on `close`, atomically: into a temporary
 * file in the same directory, flushed to disk, then renamed over `path`, so a crash mid-write
 * leaves the previous state whole. The file holds partner keys, so it is created readable by its
 * owner only.
 */
export function createStateFileWriter(
  path: string,
  snapshot: () => unknown,
  options: StateFileWriterOptions = {},
): StateFileWriter {
  const debounceMs = options.debounceMs ?? 250;
  const maxWaitMs = options.maxWaitMs ?? 2000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let firstChangeAt: number | undefined;
  let writing: Promise<void> = Promise.resolve();
  let counter = 0;

  const writeNow = (): Promise<void> => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    firstChangeAt = undefined;
    // Taken now, written in order: a later write never lands before an earlier one.
    const state = snapshot();
    const next = writing
      .then(() => writeAtomically(path, state, counter++))
      .catch((error: unknown) => {
        const code = (error as NodeJS.ErrnoException).code;
        throw new Error(`cannot write state file ${path}: ${code ?? String(error)}`, { cause: error });
      });
    writing = next.catch(() => undefined);
    return next;
  };

  const background = () => {
    writeNow().catch((error: unknown) => options.onError?.(error));
  };

  return {
    changed() {
      const now = Date.now();
      firstChangeAt ??= now;
      if (timer !== undefined) clearTimeout(timer);
      const wait = Math.max(0, Math.min(debounceMs, firstChangeAt + maxWaitMs - now));
      timer = setTimeout(background, wait);
      // A pending write must not keep a process alive that is otherwise done.
      timer.unref?.();
    },
    flush: writeNow,
    close: writeNow,
  };
}

async function writeAtomically(path: string, state: unknown, counter: number): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${counter}.tmp`);
  const file = await open(temporary, "w", 0o600);
  try {
    for (const piece of jsonChunks(state, 1024 * 1024)) await file.write(piece);
    await file.write("\n");
    await file.sync();
  } catch (error) {
    await file.close().catch(() => undefined);
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  await file.close();
  try {
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
