import { normaliseCorsOrigin, normaliseHost } from "../http/edge-policy.js";
import { checkedValue, type Flag, integerValue, UsageError } from "./flags.js";

/** What the mock's server and the proxy both take: where they listen, whom they answer, what they print. */
export interface ListenOptions {
  host: string;
  port: number;
  /** Extra origins allowed to call from a browser (`*`: all). */
  corsOrigins: string[];
  cors: boolean;
  allowedHosts: string[];
  quiet: boolean;
  help: boolean;
}

/** The shared options' defaults: loopback only, CORS for loopback pages, a line per request. */
export function listenDefaults(port: number): ListenOptions {
  return {
    host: "127.0.0.1",
    port,
    corsOrigins: [],
    cors: true,
    allowedHosts: [],
    quiet: false,
    help: false,
  };
}

/** Reads `flag` into `options` when it is one of the shared options; false when it is another. */
export function readListenFlag(flag: Flag, options: ListenOptions): boolean {
  switch (flag.name) {
    case "--port":
      options.port = integerValue(flag, 0, 65535);
      return true;
    case "--host":
      options.host = flag.value();
      return true;
    case "--cors-origin":
      options.corsOrigins.push(checkedValue(flag, normaliseCorsOrigin));
      return true;
    case "--no-cors":
      options.cors = false;
      return true;
    case "--allowed-host":
      options.allowedHosts.push(checkedValue(flag, normaliseHost));
      return true;
    case "--quiet":
      options.quiet = true;
      return true;
    case "--help":
    case "-h":
      options.help = true;
      return true;
    default:
      return false;
  }
}

/** What the shared options cannot say together. */
export function checkListenOptions(options: ListenOptions): void {
  if (!options.cors && options.corsOrigins.length > 0) {
    throw new UsageError("--no-cors and --cors-origin contradict each other");
  }
}
