// The hand-made pages around the Redoc pages: the docs index and the "Confirmed vs assumed" list, as
// HTML (in docs/) and Markdown (readable on a code host without building anything).
import type { AssumedElement } from "./docs-assumed.js";
import { ASSUMED_BADGE_CSS, ASSUMED_BADGE_HTML } from "./docs-badge.js";
import type { DocsDocument } from "./docs-documents.js";
import type { CheckedElement, CheckedElements } from "./docs-report.js";

export interface DocumentPage {
  /** File name of the Redoc page, e.g. `dashboard.html`. */
  file: string;
  /** OpenAPI document, e.g. `openapi/dashboard.yaml`. */
  source: string;
  kind: DocsDocument["kind"];
  title: string;
  summary: string;
  assumed: readonly AssumedElement[];
}

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #1f2937; }
  table { border-collapse: collapse; width: 100%; margin-bottom: 2rem; }
  th, td { border-bottom: 1px solid #e5e7eb; padding: 0.4rem 0.6rem; text-align: left; vertical-align: top; }
  th { background: #f9fafb; }
  code { font-size: 0.9em; background: #f3f4f6; padding: 0 3px; border-radius: 3px; }
  td.pointer code { word-break: break-all; }
  .status { font-weight: 600; white-space: nowrap; }
  .status-confirmed { color: #166534; }
  .status-contradicted { color: #b91c1c; }
  .status-unexercised { color: #6b7280; }
${ASSUMED_BADGE_CSS}`;

function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/** The inline Markdown the contract's descriptions use: code spans and bold. */
function inlineMarkdown(text: string): string {
  return escapeHtml(text.replace(/\s+/g, " "))
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");
}

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** The service contracts: the pages whose assumed elements are listed. */
function contracts(documents: readonly DocumentPage[]): DocumentPage[] {
  return documents.filter((d) => d.kind === "contract");
}

export function indexHtml(documents: readonly DocumentPage[]): string {
  const items = documents
    .map((d) => {
      const what =
        d.kind === "contract"
          ? `${d.assumed.length} assumed elements`
          : "development tool, not part of the service contracts";
      return (
        `<li><a href="${d.file}">${escapeHtml(d.title)}</a>: ${inlineMarkdown(d.summary)} ` +
        `(${what}; source <code>${d.source}</code>)</li>`
      );
    })
    .join("\n");
  return page(
    "rebuild-dashboard-kit reference",
    `<h1>rebuild-dashboard-kit reference</h1>
<ul>
${items}
<li><a href="assumptions.html">Confirmed vs assumed</a>: every element the provider's documentation does not state, with the reason</li>
</ul>
<p>Elements marked ${ASSUMED_BADGE_HTML} on the API pages are decisions of this
contract, not statements of the provider. Everything unmarked is confirmed by the provider's documentation.</p>`,
  );
}

/** The document's name (`dashboard`), the first part of a report's `<document> <pointer>` key. */
function nameOf(d: DocumentPage): string {
  return d.file.replace(/\.html$/, "");
}

/** Each element's status from the report, in document order. */
function statusesOf(d: DocumentPage, checked: CheckedElements): CheckedElement[] {
  return d.assumed.map(
    (e) => checked.get(`${nameOf(d)} ${e.pointer}`) ?? { status: "unexercised", evidence: "" },
  );
}

/** `12 confirmed, 0 contradicted, 70 unexercised`. */
function counts(statuses: readonly CheckedElement[]): string {
  const count = (status: string) => statuses.filter((s) => s.status === status).length;
  return `${count("confirmed")} confirmed, ${count("contradicted")} contradicted, ${count("unexercised")} unexercised`;
}

/**
 * The "Confirmed vs assumed" page. With `checked` (the assumption report of a `verify` or `proxy`
 * run, `npm run docs -- --report`), each element also shows its status against the service and the
 * evidence.
 */
export function assumptionsHtml(documents: readonly DocumentPage[], checked?: CheckedElements): string {
  const sections = contracts(documents)
    .map((d) => {
      const statuses = checked ? statusesOf(d, checked) : undefined;
      const rows = d.assumed
        .map((e, index) => {
          const href = `${d.file}${e.route ?? ""}`;
          const status = statuses?.[index];
          const cells = status
            ? `<td class="status status-${status.status}">${status.status}</td><td>${escapeHtml(status.evidence)}</td>`
            : "";
          return (
            `<tr><td><a href="${escapeHtml(href)}">${escapeHtml(e.label)}</a></td>` +
            `<td class="pointer"><code>${escapeHtml(e.pointer)}</code></td>` +
            `<td>${inlineMarkdown(e.reason)}</td>${cells}</tr>`
          );
        })
        .join("\n");
      const checkedHead = statuses ? "<th>Status</th><th>Evidence</th>" : "";
      const summary = statuses ? `\n<p>Against the service: ${counts(statuses)}.</p>` : "";
      return `<h2 id="${nameOf(d)}"><a href="${d.file}">${escapeHtml(d.title)}</a> (<code>${d.source}</code>): ${d.assumed.length} assumed</h2>${summary}
<table>
<thead><tr><th>Element</th><th>JSON pointer</th><th>Reason</th>${checkedHead}</tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
    })
    .join("\n");
  return page(
    "Confirmed vs assumed",
    `<p><a href="index.html">Reference</a></p>
<h1>Confirmed vs assumed</h1>
<p>Every element of the contract that the provider's documentation states is <strong>confirmed</strong>
and unmarked. Every element it does not state carries <code>x-assumed: true</code> and is listed here
with the reason; the API pages mark it ${ASSUMED_BADGE_HTML}. Rules assumed inside
a confirmed element are written in its prose as "(Assumed: …)" and are not listed.</p>${
      checked
        ? `\n<p>The <strong>Status</strong> column is what a run of <code>rebuild-dashboard-kit verify</code> (or <code>proxy</code>)
against the real service found: <em>confirmed</em> (its answers agreed), <em>contradicted</em> (they did not; the
evidence says how) or <em>unexercised</em> (no answer reached the element).</p>`
        : ""
    }
${sections}`,
  );
}

function markdownCell(text: string): string {
  return text.replace(/\s+/g, " ").replaceAll("|", "\\|");
}

/** The same page in Markdown; with `checked`, a status and an evidence column too. */
export function assumptionsMarkdown(documents: readonly DocumentPage[], checked?: CheckedElements): string {
  const sections = contracts(documents).map((d) => {
    const statuses = checked ? statusesOf(d, checked) : undefined;
    const rows = d.assumed.map((e, index) => {
      const status = statuses?.[index];
      const cells = status ? ` ${status.status} | ${markdownCell(status.evidence)} |` : "";
      return `| ${markdownCell(e.label)} | \`${e.pointer}\` | ${markdownCell(e.reason)} |${cells}`;
    });
    return [
      `## ${d.title} (\`${d.source}\`): ${d.assumed.length} assumed`,
      "",
      ...(statuses ? [`Against the service: ${counts(statuses)}.`, ""] : []),
      statuses
        ? "| Element | JSON pointer | Reason | Status | Evidence |"
        : "| Element | JSON pointer | Reason |",
      statuses ? "|---|---|---|---|---|" : "|---|---|---|",
      ...rows,
      "",
    ].join("\n");
  });
  return [
    "# Confirmed vs assumed",
    "",
    "Generated by `npm run docs` from `x-assumed` in `openapi/`. Every element the provider's",
    "documentation states is confirmed and unmarked; every element it does not state is listed here",
    "with the reason. Rules assumed inside a confirmed element are written in its prose as",
    '"(Assumed: …)" and are not listed.',
    "",
    ...sections,
  ].join("\n");
}
