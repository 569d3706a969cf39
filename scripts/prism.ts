// `npm run mock:prism [-- dashboard|rebuild] [--host H] [--dashboard-port N] [--rebuild-port N]`:
// serves the contract with Prism, stateless and from the documents' examples only: the dashboard
// API on 4011 and the rebuild API on 4012 (both unless one is named). Paths are served as the
// documents write them, without the server URL's base path (dashboard: no `/v1`). Ctrl+C or SIGTERM
// stops every Prism process it started.
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const prism = createRequire(import.meta.url).resolve("@stoplight/prism-cli/dist/index.js");
const CONTRACTS = { dashboard: 4011, rebuild: 4012 } as const;
type Contract = keyof typeof CONTRACTS;

function isContract(name: string): name is Contract {
  return Object.hasOwn(CONTRACTS, name);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    host: { type: "string", default: "127.0.0.1" },
    "dashboard-port": { type: "string", default: String(CONTRACTS.dashboard) },
    "rebuild-port": { type: "string", default: String(CONTRACTS.rebuild) },
  },
});
const unknown = positionals.filter((name) => !isContract(name));
if (unknown.length > 0) {
  console.error(`mock:prism: unknown contract ${unknown.join(", ")}; expected dashboard and/or rebuild`);
  process.exit(2);
}
const names =
  positionals.length > 0 ? positionals.filter(isContract) : (Object.keys(CONTRACTS) as Contract[]);

const children = new Map<Contract, ChildProcess>();
let stopping = false;

function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  const running = [...children.values()].filter((child) => child.exitCode === null);
  if (running.length === 0) process.exit(code);
  let left = running.length;
  for (const child of running) {
    child.once("exit", () => {
      if (--left === 0) process.exit(code);
    });
    child.kill("SIGTERM");
  }
}

for (const name of names) {
  const port = values[`${name}-port`];
  // Without --dynamic Prism answers with the documents' examples only.
  const child = spawn(
    process.execPath,
    [prism, "mock", join(root, "openapi", `${name}.yaml`), "--host", values.host, "--port", port],
    { stdio: ["ignore", "inherit", "inherit"] },
  );
  children.set(name, child);
  // One contract's Prism dying (bad port, bad document) takes the others down: half a mock is a trap.
  child.once("exit", (code, signal) => {
    if (stopping) return;
    console.error(`mock:prism: ${name} exited (${signal ?? code}); stopping`);
    stop(code === 0 ? 1 : (code ?? 1));
  });
}

process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));
