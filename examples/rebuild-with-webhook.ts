// The rebuild round trip: submit a site, then receive the completion callback in your own webhook
// receiver, a plain node:http server around `createRebuildWebhookHandler`.
//
//   npm start                            # the mock, in another terminal (or MOCK_ORIGIN=http://… for another)
//   npx tsx examples/rebuild-with-webhook.ts
//
// In an application, import from "rebuild-dashboard-kit", "rebuild-dashboard-kit/webhooks" and
// "rebuild-dashboard-kit/mocks/control".
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { MockControlClient } from "../mocks/control/index.js";
import { RebuildClient } from "../src/index.js";
import {
  createRebuildWebhookHandler,
  type RebuildCompletedCallback,
  toNodeHandler,
} from "../src/webhooks/index.js";

// The mock's origin: MOCK_ORIGIN (`npm start`'s by default; the tests start a mock on a free port).
const origin = process.env.MOCK_ORIGIN ?? "http://127.0.0.1:4010";
// The mock's control API does what the real service's partner console would (set the webhook URL).
const control = new MockControlClient({ baseUrl: origin });
const partnerId = 1001;
const received: RebuildCompletedCallback[] = [];

// The handler checks the webhook API key (the partner's webhook key, not its rebuild API key),
// validates the payload and acknowledges a repeated delivery without calling onCompleted again.
const receiver = createServer(
  toNodeHandler(
    createRebuildWebhookHandler({
      webhookApiKey: "mock-webhook-key-1001",
      onCompleted: (event) => {
        received.push(event);
      },
    }),
  ),
);
receiver.listen(0, "127.0.0.1");
await once(receiver, "listening");
const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/rebuild`;
console.log(`receiver listening at ${webhookUrl}`);

try {
  // With the real service, the webhook URL is set in the partner console.
  await control.upsertPartner(partnerId, { webhookUrl });

  const rebuild = new RebuildClient({
    baseUrl: origin,
    partnerId,
    apiKey: "mock-rebuild-key-1001",
  });
  // A URL not submitted before, or the service would return the earlier rebuild and call nobody.
  const sourceUrl = `https://www.example.com/?run=${crypto.randomUUID()}`;
  const submitted = await rebuild.submit({ sourceUrl });
  console.log(`submitted ${submitted.requestId}: ${submitted.status}`);

  // The mock completes a rebuild after 5 s; advancing its clock skips the wait. It answers once the
  // callback has been delivered, so the receiver has it by now.
  await control.advanceClock({ seconds: 5 });
  const event = received.find((callback) => callback.request_id === submitted.requestId);
  if (!event) throw new Error("the callback did not arrive");
  console.log(
    `callback received: ${event.status} ${event.status === "success" ? event.preview_url : event.error_code}`,
  );
  console.log(JSON.stringify(event, null, 2));
} finally {
  // Leave the partner as the seed has it: callbacks go to the mock's built-in sink.
  await control.upsertPartner(partnerId, { webhookUrl: `{origin}/__mock/webhook-sink/${partnerId}` });
  receiver.close();
}
