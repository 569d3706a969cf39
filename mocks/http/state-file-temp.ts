// The state file's temporary files (`.<file>.<pid>.<random>.tmp` beside it): unpredictable names,
// created exclusively, never through a link, readable by the owner only; what a killed server left
// is removed by the next one, once it holds the lock (no other server writes them then).
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { open, readdir, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

const prefix = (path: string) => `.${basename(path)}.`;
const SUFFIX = ".tmp";

/** A new name beside `path`; `suffix` other than the default keeps it out of `removeOrphans`' reach. */
export function temporaryPath(path: string, suffix = SUFFIX): string {
  return join(dirname(path), `${prefix(path)}${process.pid}.${randomBytes(8).toString("hex")}${suffix}`);
}

/** Creates a new temporary file for `path`: fails (EEXIST) rather than open anything already there, a link included. */
export function createTemporary(temporary: string): Promise<FileHandle> {
  return open(
    temporary,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
}

/** Removes the temporary files of `path` an earlier server left (killed mid-write); how many. */
export async function removeOrphans(path: string): Promise<number> {
  const start = prefix(path);
  const names = await readdir(dirname(path)).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(start) || !name.endsWith(SUFFIX)) continue;
    // unlink removes a link itself, never its target.
    await unlink(join(dirname(path), name)).then(
      () => removed++,
      () => undefined,
    );
  }
  return removed;
}
