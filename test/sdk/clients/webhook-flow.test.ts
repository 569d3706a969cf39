import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
  createClock,
  createHandlers,
  createMockWorld,
  type DeliveryRecord,
  type MockWorld,
} from "../../../mocks/index.js";
import { startMockServer } from "../../../mocks/node.js";
import { RebuildClient } from "../../../src/index.js";
import {
  createRebuildWebhookHandler,
  type RebuildCompletedCallback,
  toNodeHandler,
} from "../../../src/webhooks/index.js";
import { FROZEN_AT, ORIGIN } from "./harness.js";

interface Served {
  world: MockWorld;
  origin: string;
  close(): Promise<void> | void;
}

// The same path under both adapters: MSW in-process (the callback leaves through the patched
// global fetch, let through to the network) and the standalone node:http server.
const adapters: [string, () => Promise<Served>][] = [
  [
    "MSW",
    async () => {
      const world = createMockWorld({ clock: createClock({ frozenAt: FROZEN_AT }) });
      const server = setupServer(...createHandlers(world));
      server.listen({ onUnhandledRequest: "bypass" });
      return { world, origin: ORIGIN, close: () => server.close() };
    },
  ],
  [
    "node:http",
    async () => {
      const running = await startMockServer({ port: 0, clock: createClock({ frozenAt: FROZEN_AT }) });
      return { world: running.world, origin: running.origin, close: () => running.close() };
    },
  ],
];

describe.each(adapters)("the webhook path, mock served by %s", (_, serve) => {
  let mock: Served;
  let receiver: Server;
  let hookUrl: string;
  const events: RebuildCompletedCallback[] = [];

  beforeAll(async () => {
    mock = await serve();
    const handler = createRebuildWebhookHandler({
      webhookApiKey: "mock-webhook-key-1001",
      onCompleted: (event) => {
        events.push(event);
      },
    });
    receiver = createServer(toNodeHandler(handler));
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });

  afterEach(() => {
    mock.world.reset();
    events.length = 0;
  });

  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    await mock.close();
  });

  async function control(method: string, path: string, body: unknown): Promise<unknown> {
    const response = await fetch(`${mock.origin}/__mock${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return response.json();
  }

  it("a rebuild submitted through RebuildClient reaches the app's webhook handler, typed", async () => {
    await control("PUT", "/partners/1001", { webhookUrl: hookUrl });
    const client = new RebuildClient({
      baseUrl: mock.origin,
      partnerId: 1001,
      apiKey: "mock-rebuild-key-1001",
    });
    const ok = await client.submit({ sourceUrl: "https://www.example.com/" });
    const failed = await client.submit({ sourceUrl: "https://fail.example.com/broken" });
    expect([ok.created, failed.created]).toEqual([true, true]);
    expect(events).toEqual([]);

    // Returns once the work it made due, deliveries included, has run.
    await control("POST", "/clock/advance", { seconds: 5 });

    expect(events).toHaveLength(2);
    const success = events.find((event) => event.request_id === ok.requestId);
    expect(success).toEqual({
      event_type: "partner_project_rebuild_completed",
      request_id: ok.requestId,
      partner_id: 1001,
      project_id: ok.projectId,
      source_url: "https://www.example.com/",
      status: "success",
      preview_url: `https://preview.mock.example/projects/${ok.projectId}`,
    });
    const failure = events.find((event) => event.request_id === failed.requestId);
    expect(failure).toMatchObject({
      status: "failed",
      project_id: failed.projectId,
      source_url: "https://fail.example.com/broken",
      error_code: "process_failed",
      error_message: expect.any(String),
    });
    expect(failure).not.toHaveProperty("preview_url");
    if (success?.status === "success") expectTypeOf(success.preview_url).toEqualTypeOf<string>();
    if (failure?.status === "failed") expectTypeOf(failure.error_code).toEqualTypeOf<string | undefined>();

    // The service recorded both deliveries as answered 200 by the receiver.
    const deliveries = (await (await fetch(`${mock.origin}/__mock/deliveries`)).json()) as {
      data: DeliveryRecord[];
    };
    expect(deliveries.data.map((d) => [d.url, d.responseStatus])).toEqual([
      [hookUrl, 200],
      [hookUrl, 200],
    ]);

    // And the rebuild, asked again, is complete.
    await expect(client.submit({ sourceUrl: "https://www.example.com/" })).resolves.toMatchObject({
      status: "success",
      created: false,
    });
  });
});
