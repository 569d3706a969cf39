// Runs each program in examples/ the way a reader would (`npx tsx examples/<name>.ts`), against a
// fresh standalone mock of its own, and checks that it succeeds and prints what it promises.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startMockServer } from "../../mocks/node.js";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function runExample(name: string): Promise<Run> {
  const mock = await startMockServer({ port: 0 });
  try {
    const child = spawn("npx", ["tsx", `examples/${name}.ts`], {
      env: {
        ...process.env,
        // The one variable the examples read.
        MOCK_ORIGIN: mock.origin,
      },
      stdio: ["ignore", "pipe", "pipe"],
      // Bounds a hung example; the test's own timeout is longer, so the failure shows its output.
      timeout: 45_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", resolve);
    });
    return { code, stdout, stderr };
  } finally {
    await mock.close();
  }
}

describe("examples/ run anywhere", () => {
  it("take the mock's origin from MOCK_ORIGIN alone and steer it with MockControlClient, not a helper of their own", () => {
    const dir = new URL("../../examples/", import.meta.url);
    const programs = readdirSync(dir).filter((name) => name.endsWith(".ts"));
    expect(programs.length).toBeGreaterThan(0);
    for (const name of programs) {
      const source = readFileSync(new URL(name, dir), "utf8");
      const variables = [...source.matchAll(/process\.env\.(\w+)/g)].map((m) => m[1]);
      expect(variables, name).toEqual(["MOCK_ORIGIN"]);
      expect(source, name).not.toMatch(/from "\.\/support\//);
      if (source.includes("/__mock") || source.includes("advanceClock")) {
        expect(source, name).toContain("MockControlClient");
      }
    }
  });
});

describe.concurrent("examples/", { timeout: 60_000 }, () => {
  it("scoped-token: an mcp token is refused the servers; a manager creates a narrower token", async ({
    expect,
  }) => {
    const { code, stdout, stderr } = await runExample("scoped-token");
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^created #\d+ "MCP on panel1\.example\.com": \[\{"name":"mcp"/m);
    expect(stdout).toContain("the mcp token listing servers: 403 FORBIDDEN");
    expect(stdout).toMatch(/^the manager created #\d+ "Read-only MCP as admin": .*"readonly":true/m);
    expect(stdout).toContain("the manager creating an unscoped mcp token: 403 FORBIDDEN");
  });

  it("list-all-servers: listAll goes through both pages", async ({ expect }) => {
    const { code, stdout, stderr } = await runExample("list-all-servers");
    expect(code, stderr).toBe(0);
    expect(stdout.match(/^request: .*$/gm)).toEqual([
      "request: GET ?page=1&pageSize=2",
      "request: GET ?page=2&pageSize=2",
    ]);
    expect(stdout.match(/^server: .*$/gm)).toHaveLength(3);
    expect(stdout).toContain("server: https://panel1.example.com:8443 (plesk)");
    expect(stdout).toMatch(/^3 servers$/m);
  });

  it("rebuild-with-webhook: the local receiver gets the success callback", async ({ expect }) => {
    const { code, stdout, stderr } = await runExample("rebuild-with-webhook");
    expect(code, stderr).toBe(0);
    const requestId = stdout.match(/^submitted (\S+): running$/m)?.[1];
    expect(requestId).toBeDefined();
    expect(stdout).toMatch(/^callback received: success https:\/\/\S+$/m);
    expect(stdout).toContain(`"request_id": "${requestId}"`);
    expect(stdout).toContain('"event_type": "partner_project_rebuild_completed"');
  });

  it("magic-link: the link assigns the project only once the rebuild succeeded", async ({ expect }) => {
    const { code, stdout, stderr } = await runExample("magic-link");
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(
      /^magic link: https:\/\/builder\.example\.com\/login\?utm_source=rebuild-mail&promptToken=\S+$/m,
    );
    expect(stdout).toContain('opened while the rebuild runs: {"assigned":false}, brand Example Hosting');
    expect(stdout).toMatch(
      /^opened after it succeeded: \{"assigned":true,"projectId":"[^"]+"\}, brand Example Hosting$/m,
    );
  });
});
