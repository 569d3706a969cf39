// The tests that need the built package (the pack test: tarball and bin; the Bun and Deno runtime
// tests) call `ensureBuilt()` first, so `npm ci && npm test` passes on a fresh clone with no build
// step. It runs `npm run build` only when dist/ is missing or older than a file it is built from, and
// once per run: test files in other workers wait on a lock directory instead of building again. CI
// builds before the tests (for publint and attw), so there dist/ is already fresh.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const INPUTS = ["src", "mocks", "scripts/build", "package.json", "tsup.config.ts", "tsconfig.json"];
const OUTPUT = join(ROOT, "dist", "index.js");
const LOCK = join(ROOT, "test-results", "build.lock");
/** A lock older than this was left by a run that died while building. */
const STALE_LOCK_MS = 5 * 60 * 1000;
const POLL_MS = 200;

/** The newest modification time of a file under `path`, in ms. */
function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs);
}

function isFresh(): boolean {
  if (!existsSync(OUTPUT)) return false;
  const built = statSync(OUTPUT).mtimeMs;
  return INPUTS.every((input) => newest(join(ROOT, input)) <= built);
}

function tryLock(): boolean {
  mkdirSync(join(ROOT, "test-results"), { recursive: true });
  try {
    mkdirSync(LOCK);
    return true;
  } catch {
    if (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) {
      rmSync(LOCK, { recursive: true, force: true });
    }
    return false;
  }
}

/** Builds dist/ (`npm run build`) unless it is up to date; resolves once it is. */
export async function ensureBuilt(): Promise<void> {
  // The lock is taken even to look: a build in progress writes dist/index.js before its types.
  while (!tryLock()) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  try {
    if (isFresh()) return;
    await promisify(execFile)("npm", ["run", "--silent", "build"], {
      cwd: ROOT,
      timeout: 240_000,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`npm run build failed:\n${error.stdout ?? ""}\n${error.stderr ?? ""}`, {
        cause: error,
      });
    });
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
