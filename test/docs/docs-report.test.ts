// `npm run docs -- --report r.json`: the "Confirmed vs assumed" page with each assumed element's
// status from an assumption report; a report that does not match the contract is refused. The pages
// are built here from the documents without Redocly (test/docs/docs.test.ts covers the full build).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createAssumptionRecorder } from "../../mocks/assumptions/recorder.js";
import { collectAssumed } from "../../scripts/docs-assumed.js";
import { buildDocs } from "../../scripts/docs-build.js";
import { assumptionsHtml, assumptionsMarkdown, type DocumentPage } from "../../scripts/docs-pages.js";
import { readAssumptionReport } from "../../scripts/docs-report.js";

/** The scratch directories the tests made, removed once the file is done. */
const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new scratch directory, removed after the file's tests. */
function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "docs-report-"));
  scratch.push(dir);
  return dir;
}

function pages(): DocumentPage[] {
  return ["dashboard", "rebuild"].map((name) => {
    const document = parse(readFileSync(`openapi/${name}.yaml`, "utf8"));
    return {
      file: `${name}.html`,
      source: `openapi/${name}.yaml`,
      kind: "contract",
      title: document.info.title,
      summary: document.info.summary,
      assumed: collectAssumed(document),
    };
  });
}

/** A report where the rebuild service answered 401 without its challenge header. */
function reportFile(): string {
  const recorder = createAssumptionRecorder();
  recorder.record({
    document: "rebuild",
    method: "POST",
    path: "/api/integration/partners/hostpanel/rebuilds",
    query: "",
    requestHeaders: {},
    requestBody: {},
    status: 401,
    responseHeaders: { "content-type": "application/json" },
    responseBody: { message: "No", error: { code: "UNAUTHORIZED" } },
    expected: 401,
  });
  const file = join(scratchDir(), "r.json");
  writeFileSync(file, JSON.stringify(recorder.report()));
  return file;
}

describe("the assumptions page with a report", () => {
  it("shows each element's status and evidence, and the counts per contract", () => {
    const checked = readAssumptionReport(reportFile());
    const html = assumptionsHtml(pages(), checked);
    expect(html).toContain("<th>Status</th><th>Evidence</th>");
    // The dashboard saw no traffic: every one of its assumed elements is unexercised.
    const dashboardAssumed = pages()[0]?.assumed.length;
    expect(html).toContain(
      `Against the service: 0 confirmed, 0 contradicted, ${dashboardAssumed} unexercised.`,
    );
    expect(html).toMatch(
      /<code>\/components\/headers\/WWW-Authenticate<\/code><\/td><td>.*?<\/td><td class="status status-contradicted">contradicted<\/td><td>POST \/api\/integration\/partners\/hostpanel\/rebuilds → 401: WWW-Authenticate absent<\/td>/,
    );
    const markdown = assumptionsMarkdown(pages(), checked);
    expect(markdown).toContain("| Element | JSON pointer | Reason | Status | Evidence |");
    expect(markdown).toMatch(
      /\| schema ErrorResponse\.message \| .* \| confirmed \| POST .* → 401: present as documented \|/,
    );
  });

  it("is the page it always was without a report", () => {
    const html = assumptionsHtml(pages());
    expect(html).not.toContain("Status");
    expect(html).not.toContain("Against the service");
  });

  it("refuses a file that is not a report, or a report of another contract, before building anything", async () => {
    const dir = scratchDir();
    const write = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    expect(() => readAssumptionReport(write("a.json", "{"))).toThrow(/is not a readable JSON file/);
    expect(() => readAssumptionReport(write("b.json", "[]"))).toThrow(/is not an assumption report/);
    expect(() =>
      readAssumptionReport(
        write(
          "c.json",
          JSON.stringify({
            assumptions: [{ document: "rebuild", pointer: "/x", status: "maybe", evidence: "" }],
          }),
        ),
      ),
    ).toThrow(/assumptions\[0\] needs document, pointer, status/);
    const other = readAssumptionReport(
      write(
        "d.json",
        JSON.stringify({
          assumptions: [{ document: "rebuild", pointer: "/x", status: "confirmed", evidence: "" }],
        }),
      ),
    );
    const out = join(dir, "out");
    // Three of the missing elements named, the rest counted.
    const rest = pages().reduce((sum, page) => sum + page.assumed.length, 0) - 3;
    await expect(buildDocs(out, undefined, other)).rejects.toThrow(
      new RegExp(
        `the report does not match the contract \\(it lacks dashboard /paths/~1si~1servers/get/responses/200, .* and ${rest} more; it has rebuild /x\\)`,
      ),
    );
    expect(existsSync(out)).toBe(false);
  });
});
