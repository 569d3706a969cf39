import { readFile } from "node:fs/promises";
import type { MockSeed } from "../world.js";

/** Reads a seed file; a missing file or a shape that is plainly wrong is a clear error, never a crash. */
export async function loadSeedFile(path: string): Promise<MockSeed> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new Error(
      `cannot read seed file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`seed file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new Error(`seed file ${path} must hold a JSON object with "dashboard" and/or "rebuild"`);
  }
  const unknown = Object.keys(parsed).filter((key) => key !== "dashboard" && key !== "rebuild");
  if (unknown.length > 0)
    throw new Error(`seed file ${path} has unknown top-level keys: ${unknown.join(", ")}`);
  for (const [half, lists] of Object.entries(SEED_LISTS)) {
    const problem = listsProblem((parsed as Record<string, unknown>)[half], half, lists);
    if (problem) throw new Error(`seed file ${path}: ${problem}`);
  }
  return parsed as MockSeed;
}

// The lists each half of a seed is made of. The worlds check the entries themselves; checking the
// outline here turns "x is not iterable" into a message that names the field.
const SEED_LISTS: Readonly<Record<keyof MockSeed, readonly string[]>> = {
  dashboard: ["teams", "users", "tokens", "servers"],
  rebuild: ["partners"],
};

function listsProblem(value: unknown, half: string, lists: readonly string[]): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `"${half}" must be an object with ${lists.map((list) => `"${list}"`).join(", ")}`;
  }
  const missing = lists.find((list) => !Array.isArray((value as Record<string, unknown>)[list]));
  return missing === undefined ? undefined : `"${half}.${missing}" must be an array`;
}
