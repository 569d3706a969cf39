// Provenance of the contract (decisions/003, decisions/020): every element of both documents is in a
// reviewed list, assumed-*.ts (marked `x-assumed: true`) or confirmed-*.ts (unmarked, with the source
// text that states it), and the marks agree with the lists. The check is shown to fail on copies of
// the documents with an element added or a mark changed.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { assumedDashboard } from "./assumed-dashboard.js";
import { assumedRebuild } from "./assumed-rebuild.js";
import { confirmedDashboard } from "./confirmed-dashboard.js";
import { confirmedRebuild } from "./confirmed-rebuild.js";
import { type ProvenanceLists, provenanceProblems } from "./provenance.js";

/** The parts of a parsed document the failure cases below change. */
type Node = Record<string, unknown>;
interface Document {
  paths: Record<string, { post: { responses: Record<string, Node> } }>;
  components: { schemas: Record<string, Node & { properties: Node }>; headers: Record<string, Node> };
}

const root = new URL("../../", import.meta.url);
/** The source documents, kept in the repository as received (sources/README.md). */
const SOURCE_DOCS = fileURLToPath(new URL("sources/", root));

const documents = [
  {
    file: "openapi/dashboard.yaml",
    source: "dashboard-management-api.md",
    lists: { assumed: assumedDashboard, confirmed: confirmedDashboard },
  },
  {
    file: "openapi/rebuild.yaml",
    source: "partner-site-rebuild-api.md",
    lists: { assumed: assumedRebuild, confirmed: confirmedRebuild },
  },
] satisfies { file: string; source: string; lists: ProvenanceLists }[];

const load = (file: string): Document =>
  parse(readFileSync(fileURLToPath(new URL(file, root)), "utf8")) as Document;

describe.each(documents)("provenance of $file", ({ file, source, lists }) => {
  it("lists every element exactly once, as assumed (marked) or confirmed (unmarked)", () => {
    // The problems name each element: one in neither list, one listed twice or in both, one listed
    // that the document no longer has (a bare count would say only "expected 170 to be 169").
    expect(provenanceProblems(load(file), lists)).toEqual([]);
  });

  it(`quotes, for each confirmed group, text that ${source} states verbatim`, () => {
    const text = readFileSync(`${SOURCE_DOCS}${source}`, "utf8").replace(/\s+/g, " ");
    const missing = lists.confirmed
      .flatMap((group) => group.source)
      .filter((quote) => !text.includes(quote.replace(/\s+/g, " ")));
    expect(missing).toEqual([]);
    expect(lists.confirmed.every((group) => group.source.length > 0)).toBe(true);
  });
});

describe("the provenance check fails when the documents and the lists disagree", () => {
  const { file, lists } = documents[1] as (typeof documents)[number];
  const copy = () => structuredClone(load(file));

  it("an unmarked property nobody listed", () => {
    const document = copy();
    const request = document.components.schemas.RebuildRequest as Node & { properties: Node };
    request.properties.callbackUrl = { type: "string", description: "x" };
    expect(provenanceProblems(document, lists)).toEqual([
      "/components/schemas/RebuildRequest/properties/callbackUrl: property is in neither list (assumed or confirmed)",
    ]);
  });

  it("a marked response nobody listed", () => {
    const document = copy();
    const submit = document.paths["/api/integration/partners/hostpanel/rebuilds"];
    if (!submit) throw new Error("no submission path");
    submit.post.responses["409"] = {
      "x-assumed": true,
      description: "Assumed: a conflict.",
    };
    expect(provenanceProblems(document, lists)).toEqual([
      "/paths/~1api~1integration~1partners~1hostpanel~1rebuilds/post/responses/409: response is in neither list (assumed or confirmed)",
    ]);
  });

  it("a confirmed element marked assumed, and an assumed element that lost its mark", () => {
    const document = copy();
    (document.components.schemas.RateLimitError as Node)["x-assumed"] = true;
    delete (document.components.headers["Retry-After"] as Node)["x-assumed"];
    expect(provenanceProblems(document, lists)).toEqual([
      "/components/headers/Retry-After: listed as assumed, but x-assumed is undefined",
      "/components/schemas/RateLimitError: listed as confirmed, but carries x-assumed",
    ]);
  });

  it("a listed element the document no longer has, and an element listed twice", () => {
    const document = copy();
    delete (document.components.schemas.RateLimitError as Node & { properties: Node }).properties.message;
    const twice = { ...lists, assumed: [...lists.assumed, "/components/headers/Retry-After"] };
    expect(provenanceProblems(document, twice)).toEqual([
      "/components/headers/Retry-After: listed more than once",
      "/components/schemas/RateLimitError/properties/message: listed, but not in the document",
    ]);
  });
});
