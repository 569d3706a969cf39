// What the generator tests hand to scripts/generate/*.mjs: a contract document as the generators
// read it, and the generator script itself.
import { readFileSync } from "node:fs";
import { parse } from "yaml";

/** `openapi/<name>.yaml`, parsed, with the name the generators key it by. */
export function readDocument<T = unknown>(name: string): { name: string; document: T } {
  return {
    name,
    document: parse(readFileSync(new URL(`../../openapi/${name}.yaml`, import.meta.url), "utf8")) as T,
  };
}

/**
 * `scripts/generate/<script>`, typed as `T`. A plain .mjs script (it runs before anything is built);
 * a path the type checker cannot read keeps it from looking for the script's declarations.
 */
export async function importGenerator<T>(script: string): Promise<T> {
  return (await import(/* @vite-ignore */ `../../scripts/generate/${script}`)) as T;
}
