// What a test author sees when a claim is mistyped: the type checker's own message, read by
// compiling a few lines against the SDK's types. A misspelt `mcp` attribute must be named (it was
// "Type 'string' is not assignable to type 'never'", from the `manage-api-tokens` member's
// `Record<string, never>`), and a `manage-api-tokens` claim still takes no attributes.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

const SDK = fileURLToPath(new URL("../../../src/index.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "claim-errors-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CASES = {
  misspeltMcpAttribute: `client.apiTokens.create({ name: "n", claims: [{ name: "mcp", attributes: { server: "x" } }] });`,
  nearMiss: `client.apiTokens.create({ name: "n", claims: [{ name: "mcp", attributes: { serverGuid: "g", panelUsr: "u" } }] });`,
  manageWithAttribute: `client.apiTokens.create({ name: "n", claims: [{ name: "manage-api-tokens", attributes: { serverGuid: "g" } }] });`,
  valid: `client.apiTokens.create({ name: "n", claims: [{ name: "mcp", readonly: true, attributes: { serverGuid: "g", panelUser: "u" } }, { name: "manage-api-tokens", attributes: {} }] });`,
};

/** The type checker's messages for each case, compiled in one program. */
function diagnostics(): Record<keyof typeof CASES, string[]> {
  const files = Object.entries(CASES).map(([name, line]) => {
    const file = join(dir, `${name}.ts`);
    writeFileSync(
      file,
      `import { DashboardClient } from ${JSON.stringify(SDK)};\nconst client = new DashboardClient({ baseUrl: "http://127.0.0.1:4010/v1", token: "t" });\n${line}\n`,
    );
    return [name, file] as const;
  });
  const program = ts.createProgram(
    files.map(([, file]) => file),
    {
      strict: true,
      exactOptionalPropertyTypes: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      types: [],
    },
  );
  return Object.fromEntries(
    files.map(([name, file]) => [
      name,
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(file))
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    ]),
  ) as Record<keyof typeof CASES, string[]>;
}

describe("claims given to apiTokens.create", () => {
  it("name a misspelt mcp attribute in the type error, and refuse attributes on manage-api-tokens", () => {
    const found = diagnostics();
    expect(found.valid).toEqual([]);
    expect(found.misspeltMcpAttribute).toHaveLength(1);
    expect(found.misspeltMcpAttribute[0]).toContain("'server' does not exist in type");
    expect(found.misspeltMcpAttribute[0]).not.toContain("not assignable to type 'never'");
    expect(found.nearMiss.join("\n")).toContain("Did you mean to write 'panelUser'?");
    expect(found.manageWithAttribute).toHaveLength(1);
  }, 60_000);
});
