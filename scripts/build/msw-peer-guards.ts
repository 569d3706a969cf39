// The mocks' entry points for Node (package.json `exports`, condition `node`): each checks that msw
// can be found before it loads the entry point it stands for, so a project without msw reads what to
// do instead of ERR_MODULE_NOT_FOUND from a chunk (decisions/045). Written by `npm run build` (tsup's
// onSuccess) next to the built entry points, which stay what bundlers and browsers load.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** The entry points that load msw, as built in dist/ (`mocks/index` → index.js, index.cjs). */
const ENTRIES = ["mocks/index", "mocks/node", "mocks/browser"] as const;

function message(entry: string): string {
  const name = entry === "mocks/index" ? "mocks" : entry;
  return `rebuild-dashboard-kit/${name} needs msw: install msw (an optional peer dependency): npm install -D msw`;
}

// msw found or not, the way Node would look for it from here; any other failure is msw's own.
const check = (require: string, entry: string) => `try {
  ${require}.resolve("msw");
} catch (cause) {
  throw new Error(${JSON.stringify(message(entry))}, { cause });
}`;

/** Writes `<entry>.node.js` and `<entry>.node.cjs` beside each built entry point in `dist`. */
export async function writeMswPeerGuards(dist: string): Promise<void> {
  for (const entry of ENTRIES) {
    const base = entry.slice(entry.lastIndexOf("/") + 1);
    // Named exports cannot be re-exported from a module loaded later: they are listed, read from
    // the built module (msw is installed where the package is built).
    const names = Object.keys(await import(pathToFileURL(join(dist, `${entry}.js`)).href)).sort();
    await writeFile(
      join(dist, `${entry}.node.js`),
      `// Written by npm run build (scripts/build/msw-peer-guards.ts).
import { createRequire } from "node:module";
${check("createRequire(import.meta.url)", entry)}
const entry = await import("./${base}.js");
export const { ${names.join(", ")} } = entry;
`,
    );
    await writeFile(
      join(dist, `${entry}.node.cjs`),
      `// Written by npm run build (scripts/build/msw-peer-guards.ts).
"use strict";
${check("require", entry)}
module.exports = require("./${base}.cjs");
`,
    );
  }
}
