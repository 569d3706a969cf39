// The contract in other people's tools (decisions/022): two independent generators,
// @hey-api/openapi-ts and orval, generate clients for both documents into a temporary directory
// (generated third-party output is never committed); the generated code and a short flow written
// against it type-check under this project's strict settings; and each flow runs both APIs against
// the standalone mock (list servers, create, read and delete a token, submit a rebuild twice, and
// the 401 and 400 error shapes).
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMockServer, startMockServer } from "../../mocks/node.js";
import { PARTNER, TOKEN } from "../support/default-seed.js";
import type { FlowCredentials, FlowResult } from "./fixtures/flow-result.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const execFileAsync = promisify(execFile);
const DOCUMENTS = ["dashboard", "rebuild"] as const;

/** Runs a node script, failing with everything it printed. */
async function node(script: string, args: string[], cwd: string): Promise<void> {
  try {
    await execFileAsync(process.execPath, [script, ...args], { cwd, timeout: 120_000, maxBuffer: 16 << 20 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${script} ${args.join(" ")} failed:\n${stdout ?? ""}\n${stderr ?? ""}`, {
      cause: error,
    });
  }
}

// The generators' own command-line entry points (package.json `bin`), run with this Node.
const require = createRequire(import.meta.url);
const heyApi = join(dirname(require.resolve("@hey-api/openapi-ts/package.json")), "bin", "run.js");
const orval = join(dirname(require.resolve("orval")), "bin", "orval.js");
const tsc = require.resolve("typescript/bin/tsc");

// This project's own compiler settings (tsconfig.json), which generated code has to survive too.
const STRICT = {
  target: "ES2022",
  lib: ["ES2022", "DOM", "DOM.Iterable"],
  module: "ESNext",
  moduleResolution: "Bundler",
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitOverride: true,
  noFallthroughCasesInSwitch: true,
  useUnknownInCatchVariables: true,
  isolatedModules: true,
  skipLibCheck: false,
  types: [],
  noEmit: true,
};

let scratch: string;
let mock: RunningMockServer;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "generated-clients-"));
  cpSync(fileURLToPath(new URL("./fixtures/", import.meta.url)), scratch, { recursive: true });
  const contract = (name: string) => join(root, "openapi", `${name}.yaml`);
  const orvalConfig = Object.fromEntries(
    DOCUMENTS.map((name) => [
      name,
      {
        input: { target: contract(name) },
        output: {
          target: `./generated/orval/${name}.ts`,
          client: "fetch",
          mode: "single",
          override: { mutator: { path: "./orval-fetch.ts", name: "customFetch" } },
        },
      },
    ]),
  );
  writeFileSync(join(scratch, "orval.config.cjs"), `module.exports = ${JSON.stringify(orvalConfig)};\n`);
  // Everything generated from the contract (orval's whole output, hey-api's types) and the orval flow
  // under the full settings; hey-api's bundled client runtime (its client/ and core/ folders, which
  // do not depend on the contract) does not survive exactOptionalPropertyTypes, so the hey-api flow,
  // which pulls that runtime in, is checked without that one flag.
  writeFileSync(
    join(scratch, "tsconfig.strict.json"),
    JSON.stringify({
      compilerOptions: STRICT,
      include: ["flow-result.ts", "orval-*.ts", "generated/orval/*.ts", "generated/hey/*/types.gen.ts"],
    }),
  );
  writeFileSync(
    join(scratch, "tsconfig.hey-api.json"),
    JSON.stringify({
      compilerOptions: { ...STRICT, exactOptionalPropertyTypes: false },
      include: ["hey-api-flow.ts"],
    }),
  );
  await Promise.all([
    ...DOCUMENTS.map((name) =>
      node(
        heyApi,
        ["-i", contract(name), "-o", `generated/hey/${name}`, "-c", "@hey-api/client-fetch"],
        scratch,
      ),
    ),
    node(orval, ["--config", "orval.config.cjs"], scratch),
  ]);
  mock = await startMockServer({ port: 0, host: "127.0.0.1" });
}, 180_000);

afterAll(async () => {
  await mock?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const credentials: FlowCredentials = {
  token: TOKEN.unrestricted,
  partnerId: PARTNER.ok.id,
  apiKey: PARTNER.ok.apiKey,
};

const expected: FlowResult = {
  servers: { status: 200, totalCount: 3 },
  created: { status: 201, hasSecret: true },
  read: { status: 200, hasSecret: false, name: expect.any(String) },
  deleted: 204,
  readAfterDelete: { status: 404, code: "NOT_FOUND" },
  unauthorized: { status: 401, code: "UNAUTHORIZED" },
  invalid: { status: 400, code: "VALIDATION_FAILED", path: "pageSize" },
  submitted: { status: 202, rebuildStatus: "running" },
  resubmitted: { status: 200, sameRequest: true },
  rebuildUnauthorized: { status: 401, code: "UNAUTHORIZED" },
  rebuildInvalid: { status: 400, path: "sourceUrl" },
};

describe("clients generated from openapi/ by other generators", () => {
  it("type-check under strict, noUncheckedIndexedAccess and exactOptionalPropertyTypes, flows included", async () => {
    await Promise.all([
      node(tsc, ["-p", join(scratch, "tsconfig.strict.json")], scratch),
      node(tsc, ["-p", join(scratch, "tsconfig.hey-api.json")], scratch),
    ]);
  }, 120_000);

  it.each(["hey-api", "orval"])("run both APIs' flow against the standalone mock (%s)", async (generator) => {
    mock.world.reset();
    const flow = (await import(pathToFileURL(join(scratch, `${generator}-flow.ts`)).href)) as {
      run(origin: string, credentials: FlowCredentials): Promise<FlowResult>;
    };
    expect(await flow.run(mock.origin, credentials)).toEqual(expected);
  });
});
