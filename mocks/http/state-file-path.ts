// Where a `--state-file` really is (docs/guides/state-file.md): a symbolic link is followed, once, at
// start (its target is read and replaced; the link stays a link), so every later write, the lock and
// the temporary files land beside the target. A link to nothing is refused: creating a file at the
// far end of a link someone planted is what a write must never do.
import { lstat, readlink, realpath } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** The real path to read and write for `path`, or an Error naming `path`. */
export async function resolveStateFile(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") throw new Error(`cannot read state file ${path}: ${code ?? String(error)}`);
  }
  const link = await lstat(path).catch(() => undefined);
  if (link?.isSymbolicLink()) {
    const target = await readlink(path).catch(() => "?");
    throw new Error(
      `state file ${path} is a symbolic link to ${target}, which does not exist: create the target or give a path that is not a link`,
    );
  }
  try {
    // A new file: in the real directory, so a link swapped in for the directory later is not followed.
    return join(await realpath(dirname(path)), basename(path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`cannot write state file ${path}: ${code ?? String(error)}`, { cause: error });
  }
}
