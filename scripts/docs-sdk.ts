// The SDK's API reference (TypeDoc) for `npm run docs`: one site over every entry point the package
// exports (tsup.config.ts's declaration entries, the one list of them), written to <outDir>/sdk/.
// Every export must be documented and every type a public signature names must be in the reference:
// a warning fails the build, so the reference cannot silently fall behind the code.
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Application, LogLevel } from "typedoc";
import { library } from "../tsup.config.js";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Builds the reference into `<outDir>/sdk/`; rejects with the warnings when there are any. */
export async function buildSdkDocs(outDir: string): Promise<string> {
  const app = await Application.bootstrapWithPlugins({
    entryPoints: Object.values(library).map((entry) => resolve(root, entry)),
    tsconfig: resolve(root, "tsconfig.json"),
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
