// Builds the reference docs: for each document of docs-documents.ts, a marked copy (badges on assumed
// elements) rendered by `redocly build-docs` into one self-contained HTML page and finished offline
// (docs-redoc-page.ts), plus the index and the "Confirmed vs assumed" pages.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { parse, stringify } from "yaml";
import { collectAssumed, markAssumed } from "./docs-assumed.js";
import { DOCS_DOCUMENTS, type DocsDocument } from "./docs-documents.js";
import { assumptionsHtml, assumptionsMarkdown, type DocumentPage, indexHtml } from "./docs-pages.js";
import { finishRedocPage } from "./docs-redoc-page.js";
import { type CheckedElements, matchReport } from "./docs-report.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const redocly = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");
const run = promisify(execFile);

const DEVELOPMENT_TOOL_NOTE =
  "> **Development tool.** This API belongs to the tooling of rebuild-dashboard-kit. It is not part " +
  "of the service contracts: the real services do not offer it.\n\n";

async function renderRedoc(spec: string, output: string): Promise<void> {
  // --inlineBundle: the page embeds Redoc instead of loading it from a CDN, so it works offline and
  // from file://. Run from the repository root, so that redocly.yaml (telemetry: off) applies.
  await run(process.execPath, [redocly, "build-docs", spec, "--output", output, "--inlineBundle"], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024,
  });
}

/** The document as the page shows it: assumed elements badged, or the development-tool note. */
function prepare(entry: DocsDocument, document: Record<string, unknown>, assumed: unknown[]) {
  if (entry.kind === "contract") return markAssumed(document, "assumptions.html");
  if (assumed.length > 0) {
    throw new Error(`docs: ${entry.source} is a development tool; x-assumed marks only contract elements`);
  }
  const info = document.info as Record<string, unknown>;
  return withAbsoluteRefs(
    { ...document, info: { ...info, description: DEVELOPMENT_TOOL_NOTE + String(info.description ?? "") } },
    dirname(resolve(root, entry.source)),
  );
}

/**
 * A copy whose `$ref`s into other files (a development tool's document refers to the contracts'
 * schemas) name those files by absolute path: the copy is rendered from a scratch directory, and
 * the page shows the contracts' schemas as the contracts write them.
 */
function withAbsoluteRefs<T>(node: T, directory: string): T {
  if (Array.isArray(node)) return node.map((item) => withAbsoluteRefs(item, directory)) as T;
  if (typeof node !== "object" || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === "$ref" && typeof value === "string" && !value.startsWith("#")
        ? resolve(directory, value)
        : withAbsoluteRefs(value, directory),
    ]),
  ) as T;
}

/**
 * Writes one page per document plus index.html, assumptions.html and assumptions.md to `outDir`.
 * `documents` is docs-documents.ts's list; the docs test passes others. With `report` (an assumption
 * report's statuses, docs-report.ts) the assumptions pages show each element's status.
 */
export async function buildDocs(
  outDir: string,
  documents: readonly DocsDocument[] = DOCS_DOCUMENTS,
  report?: CheckedElements,
): Promise<DocumentPage[]> {
  if (report) {
    const contracts = documents.filter((entry) => entry.kind === "contract");
    matchReport(
      report,
      contracts.flatMap((entry) =>
        collectAssumed(parse(readFileSync(resolve(root, entry.source), "utf8"))).map(
          (element) => `${entry.name} ${element.pointer}`,
        ),
      ),
    );
  }
  mkdirSync(outDir, { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), "docs-"));
  try {
    const pages = await Promise.all(
      documents.map(async (entry): Promise<DocumentPage> => {
        const document = parse(readFileSync(resolve(root, entry.source), "utf8"));
        const assumed = collectAssumed(document);
        const marked = join(scratch, `${entry.name}.yaml`);
        writeFileSync(marked, stringify(prepare(entry, document, assumed)));
        const file = `${entry.name}.html`;
        const output = join(outDir, file);
        await renderRedoc(marked, output);
        writeFileSync(output, finishRedocPage(readFileSync(output, "utf8"), file));
        return {
          file,
          source: entry.source,
          kind: entry.kind,
          title: document.info.title,
          summary: document.info.summary,
          assumed,
        };
      }),
    );
    writeFileSync(join(outDir, "index.html"), indexHtml(pages));
    writeFileSync(join(outDir, "assumptions.html"), assumptionsHtml(pages, report));
    writeFileSync(join(outDir, "assumptions.md"), assumptionsMarkdown(pages, report));
    return pages;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
