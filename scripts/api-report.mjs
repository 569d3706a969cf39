// `npm run api:check` (CI) and `npm run api:update`: one API report per entry point of the package
// (Microsoft's api-extractor over the built d.ts), committed under etc/, so every change of public
// surface shows in review. Check mode fails when a report would change, and names the entry point.
// It reads dist/: run `npm run build` first (CI builds once, before this gate).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CompilerState, Extractor, ExtractorConfig } from "@microsoft/api-extractor";
import tsupConfig from "../tsup.config.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const update = process.argv.includes("--update");

// The entry points are tsup's declaration entries (the one list of them): `mocks/node` → etc/mocks-node.api.md.
const entries = Object.keys(tsupConfig.dts.entry);

const reports = entries.map((entry) => {
  const dts = `${root}dist/${entry}.d.ts`;
  if (!existsSync(dts)) {
    console.error(`api-report: ${dts} is missing: run npm run build first`);
    process.exit(2);
  }
  const name = entry.replace(/\/index$/, "").replaceAll("/", "-");
  return { entry, dts, name, config: prepare(dts, name) };
});
// One TypeScript program over every entry point's d.ts, shared by the reports: each would otherwise
// build its own of mostly the same files (the entry points share their chunks' declarations).
const compilerState = CompilerState.create(reports[0].config, {
  additionalEntryPoints: reports.map((report) => report.dts),
});

let failed = 0;
for (const { entry, name, config } of reports) {
  const result = Extractor.invoke(config, { localBuild: update, messageCallback: quiet, compilerState });
  if (!result.succeeded) {
    failed++;
    console.error(
      result.apiReportChanged && !update
        ? `api-report: the public surface of "${entry}" changed; review it and run npm run api:update (etc/${name}.api.md)`
        : `api-report: "${entry}": ${result.errorCount} error(s), ${result.warningCount} warning(s) (above)`,
    );
  }
}
console.log(
  `api-report: ${entries.length - failed} of ${entries.length} entry points ${update ? "written" : "unchanged"}`,
);
process.exit(failed === 0 ? 0 : 1);

/** api-extractor's settings for the report of one entry point's d.ts. */
function prepare(dts, name) {
  return ExtractorConfig.prepare({
    configObject: {
      projectFolder: root,
      mainEntryPointFilePath: dts,
      compiler: { tsconfigFilePath: `${root}tsconfig.json` },
      apiReport: {
        enabled: true,
        reportFileName: `${name}.api.md`,
        reportFolder: `${root}etc/`,
        reportTempFolder: `${root}test-results/api/`,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: "warning" } },
        extractorMessageReporting: {
          default: { logLevel: "warning" },
          // Release tags (@public, @beta) are not used: everything an entry point exports is public.
          "ae-missing-release-tag": { logLevel: "none" },
          // A type a public signature names but no entry point exports: written into the report,
          // where review sees it (test/pack/public-surface.test.ts refuses the internals that must not leak).
          "ae-forgotten-export": { logLevel: "none", addToApiReportFile: true },
          // Documentation is TypeDoc's gate (npm run docs), which reads the same d.ts.
          "ae-undocumented": { logLevel: "none" },
          // The d.ts maps point back at src/; the reports are of the d.ts themselves.
          "ae-wrong-input-file-type": { logLevel: "none" },
        },
        tsdocMessageReporting: { default: { logLevel: "none" } },
      },
    },
    configObjectFullPath: undefined,
    packageJsonFullPath: `${root}package.json`,
  });
}

/** Prints errors and warnings with where they are; api-extractor's own progress lines are left out. */
function quiet(message) {
  message.handled = true;
  if (message.logLevel === "error" || message.logLevel === "warning") {
    const where = message.sourceFilePath
      ? `${message.sourceFilePath.replace(root, "")}:${message.sourceFileLine}: `
      : "";
    console.error(`  ${message.logLevel} ${where}${message.text} (${message.messageId})`);
  }
}
