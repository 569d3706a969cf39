// msw 3, installed when a run needs it (decisions/045): not a devDependency, because msw 3 needs
// Node >= 22.12 and `npm ci` on Node 20 would warn (EBADENGINE) for it and its dependencies. The
// msw 3 runs (vitest.msw3.config.ts, .ci/run's examples type-check against msw 3, the pack test's
// msw 3 project) take the version from here and the package from `.cache/msw3/` (gitignored).
//
//   npx tsx scripts/msw3.ts      installs it unless it is there already, then prints where
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The msw 3 every msw 3 run uses: one exact version, as a lockfile would pin it. */
export const MSW3_VERSION = "3.0.5";

const INSTALL_DIR = fileURLToPath(new URL("../.cache/msw3/", import.meta.url));
const PACKAGE_DIR = join(INSTALL_DIR, "node_modules", "msw");

function installedVersion(): string | undefined {
  const manifest = join(PACKAGE_DIR, "package.json");
  return existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version
    : undefined;
}

/**
 * Installs msw 3 into `.cache/msw3/` unless that version is there; returns that directory, a
 * project whose `node_modules/msw` is msw 3: resolve `msw` from there to use it.
 */
export function ensureMsw3(): string {
  if (installedVersion() === MSW3_VERSION) return INSTALL_DIR;
  mkdirSync(INSTALL_DIR, { recursive: true });
  // A package.json of its own, so npm installs here and never into the repository's tree.
  writeFileSync(
    join(INSTALL_DIR, "package.json"),
    `${JSON.stringify({ name: "msw3-install", private: true, dependencies: { msw: MSW3_VERSION } }, null, 2)}\n`,
  );
  execFileSync(
    process.platform === "win32" ? "npm.cmd" : "npm",
    ["install", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error"],
    // Windows runs npm.cmd only through a shell.
    {
      cwd: INSTALL_DIR,
      stdio: ["ignore", "ignore", "inherit"],
      timeout: 300_000,
      shell: process.platform === "win32",
    },
  );
  if (installedVersion() !== MSW3_VERSION)
    throw new Error(`msw ${MSW3_VERSION} did not install into ${INSTALL_DIR}`);
  return INSTALL_DIR;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(ensureMsw3());
