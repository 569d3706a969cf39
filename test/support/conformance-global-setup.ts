// Vitest globalSetup: gives each run its own directory of conformance records (runs in the same
// checkout must not mix or delete each other's) and points `latest` at it for the coverage report.
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { RECORDS_ROOT } from "./conformance-registry.js";

declare module "vitest" {
  interface ProvidedContext {
    conformanceRunDir: string;
  }
}

/** Older run directories are leftovers of earlier runs, not of one still going. */
const STALE_MS = 60 * 60 * 1000;

// Each vitest project (vitest.config.ts) runs this, in the one main process: the first makes the
// run's directory, the others provide the same one.
const runState = globalThis as typeof globalThis & { conformanceRunDir?: string };

export default function setup(project: TestProject): void {
  runState.conformanceRunDir ??= newRunDir();
  project.provide("conformanceRunDir", runState.conformanceRunDir);
}

function newRunDir(): string {
  mkdirSync(RECORDS_ROOT, { recursive: true });
  for (const name of readdirSync(RECORDS_ROOT)) {
    const path = join(RECORDS_ROOT, name);
    if (name !== "latest" && Date.now() - statSync(path).mtimeMs > STALE_MS)
      rmSync(path, { recursive: true, force: true });
  }
  const run = `run-${Date.now()}-${process.pid}`;
  mkdirSync(join(RECORDS_ROOT, run));
  writeFileSync(join(RECORDS_ROOT, "latest"), run);
  return join(RECORDS_ROOT, run);
}
