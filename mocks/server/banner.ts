// Not from ../index.js: that barrel loads msw, an optional peer the standalone server must not need.
import { defaultDashboardSeed } from "../domain/dashboard/index.js";
import { defaultRebuildSeed } from "../domain/rebuild/index.js";
import type { MockSeed } from "../world.js";

/** What a developer needs to start calling the mock: base URLs and the seed's credentials. */
export function banner(origin: string, seed: MockSeed): string {
  const dashboard = seed.dashboard ?? defaultDashboardSeed;
  const rebuild = seed.rebuild ?? defaultRebuildSeed;
  const lines = [
    "Mock server for the Dashboard management API and the Partner site rebuild API",
    "",
    `  Dashboard base URL  ${origin}/v1`,
    `  Rebuild base URL    ${origin}`,
    `  Control API         ${origin}/__mock  (reset, state, clock/advance, partners, deliveries, ...)`,
    "",
    "Dashboard bearer tokens (Authorization: Bearer <token>):",
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
