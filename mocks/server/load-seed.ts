import { readFile } from "node:fs/promises";
import type { MockSeed } from "../world.js";

/**
 * Reads a seed file: a missing file or invalid JSON is a clear error, never a crash. The world checks
 * what it holds against the seed's schema (openapi/mock-control.yaml, `MockSeed`).
 */
export async function loadSeedFile(path: string): Promise<MockSeed> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new Error(
      `cannot read seed file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  try {
    // Whatever it holds: createMockWorld checks every value and names the bad ones.
    return JSON.parse(text) as MockSeed;
  } catch (error) {
    throw new Error(`seed file ${path} is not valid JSON: ${(error as Error).message}`);
  }
}
