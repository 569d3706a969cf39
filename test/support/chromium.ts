// The one way the tests start a browser: Debian's chromium through playwright-core, which never
// downloads one. A missing browser fails the test that needs it (never a skip).
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Headless Chromium without GPU, sandbox or any background traffic of its own; `args` adds flags. */
export async function launchChromium(args: readonly string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install it (Debian: apt-get install -y chromium) or set CHROMIUM_PATH`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...args,
    ],
  });
}
