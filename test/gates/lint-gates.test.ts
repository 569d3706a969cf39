// The lint gates of .ci/run must fail on what they guard: `biome ci --error-on-warnings` on a
// warning of this project's Biome configuration, and knip on an unused file or export. Each runs on
// a small planted example in a temporary directory (never in the working tree).
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const require = createRequire(import.meta.url);
const biome = join(root, "node_modules", ".bin", "biome");
const knip = join(dirname(require.resolve("knip")), "..", "bin", "knip.js");
const scratch = mkdtempSync(join(tmpdir(), "lint-gates-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function run(command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(command, args, {
      cwd,
      env: { ...process.env, NO_COLOR: "1" },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, output: stdout + stderr };
  }
}

/** A directory holding `files`. */
function project(name: string, files: Record<string, string>): string {
  const dir = mkdtempSync(join(scratch, `${name}-`));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

describe("biome ci fails on warnings", () => {
  // This project's rules and formatter; the VCS and file settings only make sense in the repository.
  const {
    vcs: _vcs,
    files: _files,
    $schema: _schema,
    ...config
  } = JSON.parse(readFileSync(join(root, "biome.json"), "utf8"));

  it("a non-null assertion (a warning in biome.json) passes plain `biome ci` but fails with --error-on-warnings", async () => {
    const dir = project("biome", {
      "biome.json": JSON.stringify(config),
      "planted.ts": 'const maybe: string | undefined = "x";\nexport const sure = maybe!;\n',
    });
    const plain = await run(biome, ["ci", "--colors=off", "planted.ts"], dir);
    expect(plain.output).toContain("Found 1 warning");
    expect(plain.code).toBe(0);
    const gate = await run(biome, ["ci", "--colors=off", "--error-on-warnings", "planted.ts"], dir);
    expect(gate.code).not.toBe(0);
  });
});

describe("knip fails on unused files and exports", () => {
  it("reports an orphan file and an export nothing imports, and exits 1", async () => {
    const dir = project("knip", {
      "package.json": JSON.stringify({ name: "planted", version: "1.0.0", type: "module", main: "index.ts" }),
      "index.ts": 'import { used } from "./helper.ts";\nconsole.log(used);\n',
      "helper.ts": "export const used = 1;\nexport const unused = 2;\n",
      "orphan.ts": "export const orphan = 3;\n",
    });
    const { code, output } = await run(process.execPath, [knip, "--no-progress"], dir);
    expect(output).toContain("orphan.ts");
    expect(output).toMatch(/unused\s+helper\.ts/);
    expect(code).toBe(1);
  });
});
