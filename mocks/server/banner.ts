// Not from ../index.js: that barrel loads msw, an optional peer the standalone server must not need.
import { completeSeed } from "../domain/seed.js";
import { canonicalHost, isLoopbackHost } from "../http/edge-policy.js";
import type { MockSeed } from "../world.js";

/** How the server was started, as far as the banner tells it. */
export interface BannerSettings {
  host: string;
  cors: boolean;
  corsOrigins: readonly string[];
  allowedHosts: readonly string[];
  stateFile?: string;
  /** The state came from an existing state file. */
  resumed: boolean;
}

/** What a developer needs to start calling the mock: base URLs, the seed's credentials, and what is exposed. */
export function banner(origin: string, seed: MockSeed, settings: BannerSettings): string {
  const { dashboard, rebuild } = completeSeed(seed);
  const lines = [
    "Mock server for the Dashboard management API and the Partner site rebuild API",
    "",
    `  Dashboard base URL  ${origin}/v1`,
    `  Rebuild base URL    ${origin}`,
    `  Control API         ${origin}/__mock  (reset, state, snapshot, clock/advance, partners, deliveries, ...)`,
    `  Console             ${origin}/__mock/console  (open it in a browser: the mock live, and buttons to steer it)`,
    "",
    ...exposure(settings),
    "",
    settings.resumed
      ? "Dashboard bearer tokens of the seed (the resumed state keeps only hashes: tokens created since work as before):"
      : "Dashboard bearer tokens (Authorization: Bearer <token>):",
  ];
  for (const token of dashboard.tokens) {
    const claims =
      token.claims.length === 0
        ? "unrestricted"
        : token.claims.map((c) => c.name + (c.readonly ? " (read-only)" : "")).join(", ");
    const expired = token.expireAt ? `, expires ${token.expireAt}` : "";
    lines.push(`  ${token.secret.padEnd(34)} user ${token.userId}, ${claims}${expired}`);
  }
  lines.push("", "Rebuild partners (X-Partner-Id / X-API-Key):");
  for (const partner of rebuild.partners) {
    const notes = [
      partner.featureEnabled === false ? "feature disabled" : "enabled",
      partner.webhookUrl && partner.webhookApiKey
        ? `webhook key ${partner.webhookApiKey}`
        : "no webhooks configured",
    ];
    lines.push(
      `  ${String(partner.id).padEnd(6)} ${(partner.apiKey ?? "(generated)").padEnd(26)} ${notes.join(", ")}`,
    );
  }
  lines.push(
    "",
    "Rebuild outcomes: a sourceUrl host starting with fail. fails, stall. never completes on its own, anything else succeeds.",
    "",
  );
  return lines.join("\n");
}

function exposure(settings: BannerSettings): string[] {
  const lines: string[] = [];
  const bound = canonicalHost(
    settings.host.includes(":") && !settings.host.startsWith("[") ? `[${settings.host}]` : settings.host,
  );
  if (bound === undefined || !isLoopbackHost(bound)) {
    lines.push(
      `WARNING: --host ${settings.host} is not a loopback address. The control API (partner keys, reset,`,
      "  callbacks POSTed to any URL) is reachable from the network; requests must still name an allowed",
      "  host (loopback, the --host value or an --allowed-host entry).",
    );
  }
  const origins = settings.cors
    ? [
        "pages on localhost, 127.0.0.1 and [::1] (any port)",
        ...settings.corsOrigins.map((o) => (o === "*" ? "any origin (*)" : o)),
      ]
    : [];
  lines.push(
    settings.cors ? `  CORS                ${origins.join(", ")}` : "  CORS                off (--no-cors)",
  );
  const hosts = [
    "loopback names and addresses",
    ...(isLoopbackHost(bound ?? "") ? [] : [settings.host]),
    ...settings.allowedHosts,
  ];
  lines.push(`  Allowed Host        ${hosts.join(", ")}`);
  if (settings.stateFile !== undefined) {
    lines.push(
      `  State file          ${settings.stateFile} (${settings.resumed ? "resumed from it" : "new"}; written after every change and on exit)`,
    );
  }
  return lines;
}
