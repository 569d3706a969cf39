// README and the guides work where they are read: in the repository and in the installed package
// (decisions/046, which replaces 028). Every link and image is relative and names a file or folder
// the repository tracks, and an anchor names a heading of that page; no link points at a repository
// that does not exist, and package.json names none. README is a newcomer's page: short, with the
// first SDK call and the mock inside a test near the top. The guides are packed beside it.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const execFileAsync = promisify(execFile);

const pkg = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")) as Record<string, unknown>;
const GUIDES = "docs/guides";
const pages = [
  "README.md",
  ...readdirSync(resolve(root, GUIDES))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `${GUIDES}/${f}`),
];
const text = (page: string) => readFileSync(resolve(root, page), "utf8");

const MIT = (year: number, holder: string) => `MIT License

Copyright (c) ${year} ${holder}

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
`;

/** A page without its fenced code blocks (commands and code, not references to files). */
const prose = (markdown: string) => markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");

/** Every Markdown link and image target of a page. */
function linksOf(page: string): string[] {
  return [...prose(text(page)).matchAll(/!?\[(?:[^\]]|\][^(])*\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? "");
}

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}
const anchorsOf = (page: string) =>
  new Set([...prose(text(page)).matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1] ?? "")));

let packed: Set<string>;
let tracked: string[];

beforeAll(async () => {
  const { stdout } = await execFileAsync("npm", ["pack", "--dry-run", "--json", "--loglevel=error"], {
    cwd: root,
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const [report] = JSON.parse(stdout) as { files: { path: string }[] }[];
  packed = new Set(report?.files.map((file) => file.path));
  tracked = (
    await execFileAsync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: root })
  ).stdout
    .split("\n")
    .filter(Boolean);
}, 90_000);

describe("README and the guides", () => {
  it("name no repository that does not exist: package.json has no repository, homepage or bugs", () => {
    for (const field of ["repository", "homepage", "bugs"]) expect(pkg[field], field).toBeUndefined();
    for (const page of pages) {
      expect(text(page), page).not.toMatch(/github\.com\/rebuild-dashboard-kit|raw\.githubusercontent\.com/);
    }
  });

  it("link relatively, to files the repository has, and to headings that exist", () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const target of linksOf(page)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // an external site (Prism's, say)
        const [path = "", anchor] = target.split("#");
        const file = path === "" ? page : normalize(join(dirname(page), decodeURIComponent(path)));
        const rel = relative(".", file).replace(/\/$/, "");
        if (rel.startsWith("..")) {
          broken.push(`${page}: ${target} leaves the repository`);
          continue;
        }
        const exists = tracked.includes(rel) || tracked.some((f) => f.startsWith(`${rel}/`));
        if (!exists) broken.push(`${page}: ${target} names nothing the repository has`);
        else if (anchor !== undefined && rel.endsWith(".md") && !anchorsOf(rel).has(anchor))
          broken.push(`${page}: ${target} names no heading of ${rel}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("README is a newcomer's page: at most 400 lines, the first SDK call and the mock in a test near the top", () => {
    const lines = text("README.md").split("\n");
    expect(lines.length).toBeLessThanOrEqual(400);
    const first = (needle: string) => lines.findIndex((line) => line.includes(needle)) + 1;
    expect(first("new DashboardClient(")).toBeGreaterThan(0);
    expect(first("new DashboardClient(")).toBeLessThanOrEqual(100);
    expect(first("setupServer(")).toBeGreaterThan(0);
    expect(first("setupServer(")).toBeLessThanOrEqual(150);
    expect(text("README.md")).toContain("npm ci && npm start");
    expect(text("README.md")).toContain("npm ci && npm test");
  });

  it("ship in the package: README, every guide and LICENSE, the MIT text package.json declares", () => {
    for (const page of pages) expect(packed.has(page), page).toBe(true);
    expect(pkg.license).toBe("MIT");
    expect(readFileSync(resolve(root, "LICENSE"), "utf8")).toBe(
      MIT(2026, "rebuild-dashboard-kit contributors"),
    );
    expect(packed.has("LICENSE")).toBe(true);
  });
});
