import { readFile } from "node:fs/promises";
import type { MockSeed } from "../world.js";

/** Reads a seed file; a missing file, invalid JSON or unknown top-level keys are a clear error, never a crash. */
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
  // Each half's values are checked by its domain, which names the JSON path of a bad one.
  return parsed as MockSeed;
}
