// Using the mock inside your own test suite (vitest here; any runner with MSW works the same way):
// no server to start, nothing on the network, and time under the test's control.
//
//   npx vitest run examples/in-process
//
// In your project, import from "rebuild-dashboard-kit/mocks" instead of "../../mocks/index.js".
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { createClock, createHandlers, createMockWorld } from "../../mocks/index.js";

// A frozen clock: time moves only when the test says so, so nothing ever waits for a timer.
const world = createMockWorld({ clock: createClock({ frozenAt: Date.parse("2026-03-01T12:00:00Z") }) });

// The handlers answer for the mock's origin (http://127.0.0.1:4010 by default); anything else goes
// on to your other handlers. Failing on a request nothing answers catches a URL typo early: msw 2
// calls the option `onUnhandledRequest`, msw 3 `onUnhandledFrame`; each ignores the other's, so one
// object with both works under either (with one msw, pass only its own, inline).
const server = setupServer(...createHandlers(world));
const unhandled = { onUnhandledRequest: "error", onUnhandledFrame: "error" } as const;
beforeAll(() => server.listen(unhandled));
afterEach(() => world.reset()); // back to the seed: each test starts from the same state
afterAll(() => server.close());

const BASE = world.origin;

it("lists servers with a seeded token", async () => {
  const response = await fetch(`${BASE}/v1/si/servers`, {
    headers: { authorization: "Bearer mock-token-unrestricted" },
  });
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({ totalCount: 3 });
});

it("submits a rebuild, lets it finish and reads the callback the mock sent", async () => {
  const response = await fetch(`${BASE}/api/integration/partners/hostpanel/rebuilds`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-partner-id": "1001", // seeded partner with the feature on and webhooks configured
      "x-api-key": "mock-rebuild-key-1001",
    },
    body: JSON.stringify({ sourceUrl: "https://www.example.com/" }),
  });
  expect(response.status).toBe(202);
  const { requestId } = (await response.json()) as { requestId: string };

  // A rebuild takes 5 s of mock time. advance() runs everything that falls due, callback delivery
  // included, before it resolves.
  await world.clock.advance(5000);

  // Every callback attempt is recorded; partner 1001's webhook is the mock's built-in sink.
  const [delivery] = world.listDeliveries().data;
  expect(delivery).toMatchObject({
    requestId,
    attempt: 1,
    responseStatus: 200,
    body: { event_type: "partner_project_rebuild_completed", status: "success" },
  });

  // The same facts over HTTP, for code that only has the URL: the control API under /__mock.
  const sink = await fetch(`${BASE}/__mock/webhook-sink/1001`);
  expect(await sink.json()).toMatchObject({ data: [{ body: { request_id: requestId } }] });
});
