// The built SDK end to end under another runtime (Bun, Deno; see runtimes.test.ts): list servers,
// submit a rebuild, let the mock complete it, and verify the delivered callback with the webhook
// entry point. Plain JavaScript so that every runtime runs it as is. Prints one JSON line.
import { DashboardClient, RebuildClient } from "../../dist/index.js";
import { parseRebuildCallback } from "../../dist/webhooks/index.js";

const origin = process.argv[2];
const dashboard = new DashboardClient({ baseUrl: `${origin}/v1`, token: "mock-token-unrestricted" });
const rebuild = new RebuildClient({ baseUrl: origin, partnerId: 1001, apiKey: "mock-rebuild-key-1001" });

const { totalCount } = await dashboard.servers.list();
const submitted = await rebuild.submit({ sourceUrl: "https://www.example.com/" });
const advanced = await fetch(`${origin}/__mock/clock/advance`, {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ seconds: 5 }),
});
if (!advanced.ok) throw new Error(`clock advance answered ${advanced.status}`);
const sink = await (await fetch(`${origin}/__mock/webhook-sink/1001`)).json();
const delivered = sink.data[0];
const callback = parseRebuildCallback({
  body: JSON.stringify(delivered.body),
  headers: delivered.headers,
  webhookApiKey: "mock-webhook-key-1001",
});
console.log(
  JSON.stringify({
    totalCount,
    created: submitted.created,
    requestId: submitted.requestId,
    callback: { requestId: callback.request_id, status: callback.status },
  }),
);
