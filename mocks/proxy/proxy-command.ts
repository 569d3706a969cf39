// `rebuild-dashboard-kit proxy …`: starts the proxy and keeps it running until SIGINT or SIGTERM,
// which write the report (when --report was given) and close the HAR log before the process exits.
import { UsageError } from "../server/flags.js";
import { PROXY_USAGE, parseProxyArgs } from "./proxy-args.js";
import { startProxyServer } from "./proxy-server.js";

export async function runProxy(argv: readonly string[]): Promise<void> {
  let options: ReturnType<typeof parseProxyArgs>;
  try {
    options = parseProxyArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n\n${PROXY_USAGE}`);
    process.exit(2);
  }
  if (options.help) {
    console.log(PROXY_USAGE);
    return;
  }
  // Nothing a client or a service sends may end the proxy: reported, and it goes on serving.
  process.on("uncaughtException", (error) =>
    console.error("proxy: uncaught exception (still serving):", error),
  );
  process.on("unhandledRejection", (reason) =>
    console.error("proxy: unhandled rejection (still serving):", reason),
  );
  let running: Awaited<ReturnType<typeof startProxyServer>>;
  try {
    running = await startProxyServer({
      host: options.host,
      port: options.port,
      cors: options.cors,
      corsOrigins: options.corsOrigins,
      allowedHosts: options.allowedHosts,
      upstreamTimeoutMs: options.upstreamTimeoutSeconds * 1000,
      ...(options.dashboardUpstream === undefined ? {} : { dashboardUpstream: options.dashboardUpstream }),
      ...(options.rebuildUpstream === undefined ? {} : { rebuildUpstream: options.rebuildUpstream }),
      ...(options.record === undefined ? {} : { record: options.record }),
      ...(options.report === undefined ? {} : { report: options.report }),
      log: (line) => {
        // Failures start with "proxy:" and are printed even with --quiet.
        if (line.startsWith("proxy:")) console.error(line);
        else if (!options.quiet) console.log(line);
      },
    });
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    console.error(
      `proxy failed to start: ${code === "EADDRINUSE" ? `port ${options.port} is already in use; pick another with --port N` : message}`,
    );
    process.exit(1);
  }
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${why}: stopping`);
    running.close().then(
      () => {
        if (options.report) console.log(`Report written to ${options.report}`);
        process.exit(0);
      },
      () => process.exit(1),
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  const upstreams = [
    options.dashboardUpstream && `  dashboard API  ${running.origin}/v1  →  ${options.dashboardUpstream}`,
    options.rebuildUpstream && `  rebuild API    ${running.origin}  →  ${options.rebuildUpstream}`,
  ].filter(Boolean);
  console.log(
    `Proxy\n${upstreams.join("\n")}\n  report         ${running.origin}/__proxy/report${options.report ? ` (and ${options.report})` : ""}${options.record ? `\n  recording      ${options.record}` : ""}`,
  );
  console.log(`Listening on ${running.origin} (Ctrl+C to stop)`);
}
