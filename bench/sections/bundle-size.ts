import { CLIENTS_BUDGET_BYTES, measureAppBundle } from "../lib/app-bundle.js";
import { atMost, type Figure, ratio } from "../lib/figures.js";

/** 5. What an app pays for the clients only, and for the webhook receiver. */
export async function benchBundleSize(log: (line: string) => void) {
  const section = "5. Bundle size (min+gz)";
  const clients = await measureAppBundle('export { DashboardClient, RebuildClient } from "./src/index.ts";');
  const webhooks = await measureAppBundle(
    'export { parseRebuildCallback, createRebuildWebhookHandler } from "./src/webhooks/index.ts";',
  );
  log(
    `${section}: clients ${clients.gzipped} B gz (${clients.minified} B min), webhooks ${webhooks.gzipped} B gz`,
  );
  const figures: Figure[] = [
    {
      section,
      name: "app importing DashboardClient + RebuildClient",
      value: clients.gzipped,
      unit: "B",
      ratio: ratio(clients.gzipped, CLIENTS_BUDGET_BYTES),
      ratioOf: `× the ${CLIENTS_BUDGET_BYTES / 1000} kB budget`,
      target: atMost(clients.gzipped, CLIENTS_BUDGET_BYTES, `≤ ${CLIENTS_BUDGET_BYTES / 1000} kB gz`),
      note: `${clients.minified.toLocaleString("en-US")} B minified`,
    },
    {
      section,
      name: "app importing ./webhooks (parse + handler)",
      value: webhooks.gzipped,
      unit: "B",
      compared: { label: "clients-only app", value: clients.gzipped },
      ratio: ratio(webhooks.gzipped, clients.gzipped),
      ratioOf: "× clients-only app",
      note: `${webhooks.minified.toLocaleString("en-US")} B minified; checks generated from the contract`,
    },
  ];
  return { figures, raw: { clients: sizes(clients), webhooks: sizes(webhooks) } };
}

// The results file keeps the sizes; the input list is for the budget test.
function sizes({ minified, gzipped }: { minified: number; gzipped: number }) {
  return { minified, gzipped };
}
