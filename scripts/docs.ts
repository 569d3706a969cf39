// `npm run docs [-- <outDir>]`: builds the reference docs into docs/ (or outDir).
import { resolve } from "node:path";
import { buildDocs } from "./docs-build.js";

const outDir = resolve(process.argv[2] ?? "docs");
const pages = await buildDocs(outDir);
const assumed = pages.reduce((sum, page) => sum + page.assumed.length, 0);
console.log(
  `docs: ${pages.map((p) => p.file).join(", ")}, assumptions.html (${assumed} assumed) in ${outDir}`,
);
