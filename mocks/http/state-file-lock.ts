// One server per state file (docs/guides/state-file.md): `<file>.lock` beside it names the process
// that holds it. Created complete and exclusively (a temporary file linked into place: `link` fails
// when the name exists and never follows a link), so a starting server never reads a half-written
// lock. A lock whose process is gone (killed, crashed) is stale and taken over.
import { constants } from "node:fs";
import { link, lstat, open, readFile, rename, unlink } from "node:fs/promises";
import { temporaryPath } from "./state-file-temp.js";

export interface StateFileLock {
  /** Removes the lock file (the server stopped). */
  release(): Promise<void>;
}

/**
 * Takes the lock of the state file at `path` (already resolved), or rejects with an Error naming
 * `shown` (the path as given) and the process that holds it.
 */
export async function lockStateFile(path: string, shown: string): Promise<StateFileLock> {
  const lockPath = `${path}.lock`;
  const inUse = (pid: number | undefined) =>
    new Error(
      `state file ${shown} is in use by another mock server (pid ${pid ?? "?"}, lock file ${lockPath}): stop it, or give another --state-file`,
    );
  // A few rounds: after a stale lock is moved aside, creating ours may still lose to another server
  // starting at the same moment, which is then named.
  for (let round = 0; round < 3; round++) {
    if (await tryCreate(path, lockPath, shown)) {
      return { release: () => unlink(lockPath).catch(() => undefined) };
    }
    const holder = await readHolder(lockPath, shown);
    if (holder.pid !== undefined && isAlive(holder.pid)) throw inUse(holder.pid);
    // Its process is gone: stale. Moved aside rather than removed, so that a lock another starting
    // server took in the meantime (in place of the stale one) is recognised and put back.
    const aside = temporaryPath(path, ".lock-stale");
    try {
      await rename(lockPath, aside);
    } catch {
      continue;
    }
    const moved = await readFile(aside, "utf8").catch(() => "");
    if (moved !== holder.text) await link(aside, lockPath).catch(() => undefined);
    await unlink(aside).catch(() => undefined);
  }
  throw inUse((await readHolder(lockPath, shown)).pid);
}

async function tryCreate(path: string, lockPath: string, shown: string): Promise<boolean> {
  // Not a `.tmp`: a server cleaning its orphans must not remove a lock another one is creating.
  const temporary = temporaryPath(path, ".lock-tmp");
  try {
    const file = await open(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      await file.writeFile(`${process.pid}\n`);
    } finally {
      await file.close();
    }
    await link(temporary, lockPath);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    throw new Error(`cannot write state file ${shown}: ${code ?? String(error)}`, { cause: error });
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

/** What a lock file holds, and the pid it names (undefined when none: then it is stale). */
async function readHolder(
  lockPath: string,
  shown: string,
): Promise<{ text: string; pid: number | undefined }> {
  const info = await lstat(lockPath).catch(() => undefined);
  if (info === undefined) return { text: "", pid: undefined };
  if (!info.isFile()) {
    throw new Error(`state file ${shown}: ${lockPath} is not a regular file: remove it to start`);
  }
  const text = await readFile(lockPath, "utf8").catch(() => "");
  const pid = Number(text.trim());
  return { text, pid: Number.isSafeInteger(pid) && pid > 0 ? pid : undefined };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
