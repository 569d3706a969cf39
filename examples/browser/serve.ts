// Serves the example app with Vite's dev server, which compiles the TypeScript sources (the SDK and
// the mock included) on the fly, so nothing needs building first:
//
//   npx tsx examples/browser/serve.ts        then open the URL it prints
//
// The browser test starts it the same way, on a free port.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
// Vite's createServer, as Vitest (which depends on Vite) re-exports it.
import { createViteServer } from "vitest/node";

export interface ExampleAppServer {
  /** Where the page is, e.g. `http://127.0.0.1:5173/`. */
  readonly url: string;
  close(): Promise<void>;
}

export async function serveExampleApp(
  options: { host?: string; port?: number; mswFrom?: string } = {},
): Promise<ExampleAppServer> {
  const { host = "127.0.0.1", port = 5173, mswFrom } = options;
  // Another msw, the one installed in the project at `mswFrom` (the suite's msw 3 run,
  // scripts/msw3.ts): the page imports it in place of this repository's msw, and gets that
  // version's worker script instead of the one in public/.
  const beside = mswFrom && join(mswFrom, "package.json");
  const workerScript = beside && createRequire(beside).resolve("msw/mockServiceWorker.js");
  const server = await createViteServer({
    configFile: false,
    // public/ (beside this file) holds mockServiceWorker.js, served at /mockServiceWorker.js.
    root: fileURLToPath(new URL(".", import.meta.url)),
    // Vite's default would put its dependency cache in a node_modules/ inside examples/browser; each
    // msw gets its own.
    cacheDir: fileURLToPath(
      new URL(`../../node_modules/.vite/browser-example${beside ? "-other-msw" : ""}`, import.meta.url),
    ),
    logLevel: "warn",
    clearScreen: false,
    server: { host, port, strictPort: true },
    ...(beside &&
      workerScript && {
        plugins: [
          {
            name: "other-msw",
            enforce: "pre",
            resolveId(source) {
              return /^msw(\/|$)/.test(source) ? this.resolve(source, beside, { skipSelf: true }) : null;
            },
            configureServer(vite) {
              vite.middlewares.use("/mockServiceWorker.js", async (_req, res) => {
                res.setHeader("content-type", "text/javascript");
                res.end(await readFile(workerScript, "utf8"));
              });
            },
          },
        ],
      }),
  });
  await server.listen();
  const url = server.resolvedUrls?.local[0];
  if (url === undefined) {
    await server.close();
    throw new Error("Vite started but reported no local URL");
  }
  return { url, close: () => server.close() };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { url } = await serveExampleApp();
  console.log(`The example app: ${url} (Ctrl+C stops it)`);
}
