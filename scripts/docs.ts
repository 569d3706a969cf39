// `npm run docs [-- <outDir>] [--report FILE.json]`: builds the reference docs into docs/ (or
// outDir): the contracts' pages, then the SDK's API reference (TypeDoc, <outDir>/sdk/). With --report (the assumption report of `rebuild-dashboard-kit verify` or `proxy`), the
// "Confirmed vs assumed" page shows each assumed element's status against the service.
import { resolve } from "node:path";
import { buildDocs } from "./docs-build.js";
import { readAssumptionReport } from "./docs-report.js";
import { buildSdkDocs } from "./docs-sdk.js";

const args = process.argv.slice(2);
const at = args.indexOf("--report");
const reportFile = at < 0 ? undefined : args[at + 1];
if (at >= 0 && (reportFile === undefined || reportFile.startsWith("--"))) {
  console.error("docs: --report needs a file (the JSON report of rebuild-dashboard-kit verify or proxy)");
  process.exit(2);
}
const rest = at < 0 ? args : [...args.slice(0, at), ...args.slice(at + 2)];
const outDir = resolve(rest[0] ?? "docs");
try {
  const report = reportFile === undefined ? undefined : readAssumptionReport(reportFile);
  const pages = await buildDocs(outDir, undefined, report);
  const assumed = pages.reduce((sum, page) => sum + page.assumed.length, 0);
  console.log(
    `docs: ${pages.map((p) => p.file).join(", ")}, assumptions.html (${assumed} assumed${report ? ", with the report's statuses" : ""}) in ${outDir}`,
  );
  console.log(`docs: the SDK reference in ${await buildSdkDocs(outDir)}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
