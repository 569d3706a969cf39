// The SDK's API reference (TypeDoc) for `npm run docs`: one site over every entry point the package
// exports (tsup.config.ts's declaration entries, the one list of them), written to <outDir>/sdk/.
// Every export must be documented and every type a public signature names must be in the reference:
// a warning fails the build, so the reference cannot silently fall behind the code.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Application, LogLevel } from "typedoc";
import { library } from "../tsup.config.js";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Builds the reference into `<outDir>/sdk/`; rejects with the warnings when there are any. */
export async function buildSdkDocs(outDir: string): Promise<string> {
  const entryPoints = Object.values(library).map((entry) => resolve(root, entry));
  // TypeDoc type-checks the whole program of its tsconfig before it converts. tsconfig.json's
  // program is the repository's (tests, scripts, bench: three times the files), so TypeDoc gets the
  // same options with the entry points as the only roots: the package's sources and what they
  // import, the same pages, in half the time. (`npm run typecheck` checks the rest.)
  const scratch = mkdtempSync(join(tmpdir(), "docs-sdk-"));
  try {
    const tsconfig = join(scratch, "tsconfig.json");
    writeFileSync(
      tsconfig,
      JSON.stringify({
        extends: resolve(root, "tsconfig.json"),
        // Type packages are looked up from the config's directory, a scratch one here.
        compilerOptions: { typeRoots: [resolve(root, "node_modules", "@types")] },
        files: entryPoints,
        include: [],
      }),
    );
    return await convert(entryPoints, tsconfig, outDir);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function convert(entryPoints: string[], tsconfig: string, outDir: string): Promise<string> {
  const app = await Application.bootstrapWithPlugins({
    entryPoints,
    tsconfig,
    name: "rebuild-dashboard-kit",
    readme: "none",
    excludePrivate: true,
    excludeInternal: true,
    // No source links: the package names no repository (decisions/046), and TypeDoc's guess from a
    // checkout's git remote warns (failing the build) where there is none or it is a local path.
    disableSources: true,
    validation: { notExported: true, invalidLink: true, notDocumented: true },
    requiredToBeDocumented: [
      "Class",
      "Function",
      "Variable",
      "Interface",
      "TypeAlias",
      "Enum",
      "Method",
      "Accessor",
      "Constructor",
    ],
    treatWarningsAsErrors: true,
    logLevel: LogLevel.Warn,
  });
  const project = await app.convert();
  if (project === undefined) throw new Error("docs: TypeDoc could not convert the entry points");
  app.validate(project);
  const out = join(outDir, "sdk");
  if (app.logger.hasErrors() || app.logger.hasWarnings())
    throw new Error(`docs: the SDK reference has ${app.logger.warningCount} warning(s) (above)`);
  await app.generateDocs(project, out);
  return out;
}
