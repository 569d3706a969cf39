// README works where it is read: on the npm package page, in node_modules and in the repository
// (decisions/028). A relative link or image must name a file the packed tarball holds (`npm pack
// --dry-run --json` lists them); a file only the repository has is linked absolutely, into the
// repository package.json names, and must exist there; the README may not name a repository-only
// file without linking it, nor anything outside the repository. LICENSE must be the text of the
// licence package.json declares, and be packed.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const execFileAsync = promisify(execFile);

interface PackageJson {
  license: string;
  repository: { type: string; url: string };
  homepage: string;
  bugs: { url: string };
}
const pkg = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")) as PackageJson;
const readme = readFileSync(resolve(root, "README.md"), "utf8");

// The repository on GitHub, as package.json names it: `git+https://github.com/OWNER/REPO.git`.
const repo = /^git\+(https:\/\/github\.com\/[\w.-]+\/[\w.-]+)\.git$/.exec(pkg.repository.url)?.[1] ?? "";
const raw = repo.replace("https://github.com/", "https://raw.githubusercontent.com/");
const BRANCH = "main";

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

/** README without its fenced code blocks (commands and code, not references to files). */
const prose = readme.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
/** Every Markdown link and image target and every HTML `src`/`href`, with its text. */
const links = [
  ...[...prose.matchAll(/!?\[([^\]]*)\]\(([^)\s]+)\)/g)].map((m) => ({
    text: m[1] ?? "",
    target: m[2] ?? "",
  })),
  ...[...prose.matchAll(/<(?:img|a)\b[^>]*\s(?:src|href)="([^"]+)"/g)].map((m) => ({
    text: "",
    target: m[1] ?? "",
  })),
];

let packed: Set<string>;
let tracked: string[];

/** Whether `path` is a packed file, or a folder with packed files. */
function inPackage(path: string): boolean {
  const folder = path.endsWith("/") ? path : `${path}/`;
  return packed.has(path) || [...packed].some((file) => file.startsWith(folder));
}

beforeAll(async () => {
  const { stdout } = await execFileAsync("npm", ["pack", "--dry-run", "--json", "--loglevel=error"], {
    cwd: root,
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const [report] = JSON.parse(stdout) as { files: { path: string }[] }[];
  packed = new Set(report?.files.map((file) => file.path));
  tracked = (await execFileAsync("git", ["ls-files"], { cwd: root })).stdout.split("\n").filter(Boolean);
}, 90_000);

describe("README and LICENSE in the package", () => {
  it("package.json names the repository, its home page and its issues, all on the same repository", () => {
    expect(repo).toMatch(/^https:\/\/github\.com\//);
    expect(pkg.repository.type).toBe("git");
    expect(pkg.homepage).toBe(`${repo}#readme`);
    expect(pkg.bugs.url).toBe(`${repo}/issues`);
  });

  it("LICENSE is the text of the licence package.json declares, and is packed", () => {
    expect(pkg.license).toBe("MIT");
    expect(readFileSync(resolve(root, "LICENSE"), "utf8")).toBe(
      MIT(2026, "rebuild-dashboard-kit contributors"),
    );
    expect(packed.has("LICENSE")).toBe(true);
    expect(packed.has("README.md")).toBe(true);
  });

  it("a relative link or image names a file in the packed tarball", () => {
    const relative = links.filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target) && !l.target.startsWith("#"));
    expect(relative.length).toBeGreaterThan(0);
    for (const { target } of relative) {
      const path = decodeURIComponent(target.split("#")[0] ?? "").replace(/^\.\//, "");
      expect(path.startsWith("../") || path.startsWith("/"), `${target} leaves the package`).toBe(false);
      expect(inPackage(path), `${target} is not in the package (npm pack)`).toBe(true);
    }
  });

  it("a link into the repository names a file or folder the repository has, which the package does not", () => {
    const forms = [
      { prefix: `${repo}/blob/${BRANCH}/`, folder: false },
      { prefix: `${repo}/tree/${BRANCH}/`, folder: true },
      { prefix: `${raw}/${BRANCH}/`, folder: false },
    ];
    const intoRepo = links.filter((l) => l.target.startsWith(repo) || l.target.startsWith(raw));
    expect(intoRepo.length).toBeGreaterThan(0);
    for (const { target } of intoRepo) {
      const form = forms.find((f) => target.startsWith(f.prefix));
      expect(form, `${target}: link as ${forms.map((f) => `${f.prefix}…`).join(" or ")}`).toBeDefined();
      const path = decodeURIComponent(target.slice(form?.prefix.length).split("#")[0] ?? "");
      const exists = form?.folder
        ? tracked.some((f) => f.startsWith(`${path.replace(/\/$/, "")}/`))
        : tracked.includes(path);
      expect(exists, `${target}: ${path} is not in the repository`).toBe(true);
      // Images are not packed (decisions/028); anything else the package has is linked relatively.
      if (!form?.prefix.startsWith(raw)) expect(inPackage(path), `${target}: link it relatively`).toBe(false);
    }
  });

  it("names no repository-only file without linking it, and nothing outside the repository", () => {
    // What is left once the links and the commands (code spans with a space, such as
    // `npx tsx examples/<name>.ts`, run in a clone) are gone: code spans and words that look like paths.
    const text = prose
      .replace(/!?\[([^\]]*)\]\(([^)\s]+)\)/g, " ")
      .replace(/`([^`\n]*)`/g, (span, inner: string) => (/\s/.test(inner) ? " " : span));
    const candidates = [
      ...text.matchAll(/(?<![\w/.:-])(\.\.\/[\w./*-]*|[\w.-]+\/[\w./*-]*|[A-Z][A-Z_]+\.md)/g),
    ].map((m) => m[1] ?? "");
    const unlinked: string[] = [];
    for (const candidate of candidates) {
      if (candidate.startsWith("../")) {
        unlinked.push(`${candidate} (outside the repository)`);
        continue;
      }
      // `examples/*.ts` names the folder `examples/`.
      const path = candidate.replace(/[*].*$/, "").replace(/[.,;:]+$/, "");
      if (inPackage(path.replace(/\/$/, ""))) continue;
      if (tracked.some((file) => file.startsWith(path))) unlinked.push(candidate);
    }
    expect(unlinked).toEqual([]);
  });
});
