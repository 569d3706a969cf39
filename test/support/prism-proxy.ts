// Runs `prism proxy --errors` for one contract in front of an upstream: Prism validates every request
// and every upstream response against the document on its own (a referee independent of Ajv and of
// this suite's validator) and, with --errors, turns any violation into an error answer.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { freePort } from "./free-port.js";

export interface PrismProxy {
  /** Where Prism listens; paths as the document writes them (the dashboard's without `/v1`). */
  readonly url: string;
  /** Everything Prism printed so far. */
  output(): string;
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);
const PRISM = require.resolve("@stoplight/prism-cli/dist/index.js");
const STARTUP_MS = 45_000;

/** Starts Prism for `openapi/<contract>.yaml`, forwarding to `upstream`; resolves once it listens. */
export async function startPrismProxy(
  contract: "dashboard" | "rebuild",
  upstream: string,
): Promise<PrismProxy> {
  const port = await freePort();
  const document = fileURLToPath(new URL(`../../openapi/${contract}.yaml`, import.meta.url));
  const child: ChildProcess = spawn(
    process.execPath,
    [PRISM, "proxy", document, upstream, "--errors", "-p", String(port), "-h", "127.0.0.1"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  const listening = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Prism did not start in ${STARTUP_MS} ms:\n${output}`)),
      STARTUP_MS,
    );
    const take = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (output.includes("Prism is listening")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", take);
    child.stderr?.on("data", take);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited (${code}) before listening:\n${output}`));
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    await exited;
  };
  try {
    await listening;
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, output: () => output, stop };
}
