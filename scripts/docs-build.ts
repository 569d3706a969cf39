// Builds the reference docs: for each contract, a marked copy (badges on assumed elements) rendered
// by `redocly build-docs` into one self-contained HTML page, plus the index and the
// "Confirmed vs assumed" pages.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { parse, stringify } from "yaml";
import { collectAssumed, markAssumed } from "./docs-assumed.js";
import { assumptionsHtml, assumptionsMarkdown, type DocumentPage, indexHtml } from "./docs-pages.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const redocly = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");
const run = promisify(execFile);

const DOCUMENTS = ["dashboard", "rebuild"] as const;

async function renderRedoc(spec: string, output: string): Promise<void> {
  // --inlineBundle: the page embeds Redoc instead of loading it from a CDN, so it works offline and
  // from file://.
  await run(process.execPath, [redocly, "build-docs", spec, "--output", output, "--inlineBundle"], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024,
  });
}

/** Writes index.html, dashboard.html, rebuild.html, assumptions.html and assumptions.md to `outDir`. */
export async function buildDocs(outDir: string): Promise<DocumentPage[]> {
  mkdirSync(outDir, { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), "docs-"));
  try {
    const pages = await Promise.all(
      DOCUMENTS.map(async (name): Promise<DocumentPage> => {
        const source = `openapi/${name}.yaml`;
        const document = parse(readFileSync(join(root, source), "utf8"));
        const assumed = collectAssumed(document);
        const marked = join(scratch, `${name}.yaml`);
        writeFileSync(marked, stringify(markAssumed(document, "assumptions.html")));
        const file = `${name}.html`;
        await renderRedoc(marked, join(outDir, file));
        return {
          file,
          source,
          title: document.info.title,
          summary: document.info.summary,
          assumed,
        };
      }),
    );
    writeFileSync(join(outDir, "index.html"), indexHtml(pages));
    writeFileSync(join(outDir, "assumptions.html"), assumptionsHtml(pages));
    writeFileSync(join(outDir, "assumptions.md"), assumptionsMarkdown(pages));
    return pages;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
