// A default world schedules with whatever timers and `Date` are installed when it schedules, so a
// test runner's fake timers drive completion and callbacks, whether the world was created before or
// after they were installed (issue 23; decisions/044).
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createHandlers, createMockWorld, type MockWorld } from "../../mocks/index.js";
import { REBUILDS_PATH, rebuildHeaders } from "../http/support/client.js";
import { PARTNER } from "../support/default-seed.js";

const ORIGIN = "http://fake-timers.test";
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

async function submitAndWait(world: MockWorld): Promise<string> {
  server.use(...createHandlers(world));
  const answer = await fetch(`${ORIGIN}${REBUILDS_PATH}`, {
    method: "POST",
    headers: { ...rebuildHeaders(), "content-type": "application/json" },
    body: JSON.stringify({ sourceUrl: "https://www.example.com/" }),
  });
  expect(answer.status).toBe(202);
  const { requestId } = (await answer.json()) as { requestId: string };
  await vi.advanceTimersByTimeAsync(6000);
  return requestId;
}

function expectCompletedAndDelivered(world: MockWorld, requestId: string): void {
  const rebuild = world.state().rebuild.rebuilds.find((r) => r.requestId === requestId);
  expect(rebuild?.status).toBe("success");
  const sink = world.listSinkEntries(Number(PARTNER.ok.id) as never).data;
  expect(sink).toHaveLength(1);
  expect(JSON.stringify(sink[0]?.body)).toContain(requestId);
}

describe("the default world follows the runner's fake timers", () => {
  it("created before vi.useFakeTimers()", async () => {
    const world = createMockWorld({ origin: ORIGIN });
    vi.useFakeTimers();
    expectCompletedAndDelivered(world, await submitAndWait(world));
    world.clock.dispose();
  });

  it("created after vi.useFakeTimers()", async () => {
    vi.useFakeTimers();
    const world = createMockWorld({ origin: ORIGIN });
    expectCompletedAndDelivered(world, await submitAndWait(world));
    world.clock.dispose();
  });

  it("world.clock.advance still works beside fake timers", async () => {
    vi.useFakeTimers();
    const world = createMockWorld({ origin: ORIGIN });
    server.use(...createHandlers(world));
    const answer = await fetch(`${ORIGIN}${REBUILDS_PATH}`, {
      method: "POST",
      headers: { ...rebuildHeaders(), "content-type": "application/json" },
      body: JSON.stringify({ sourceUrl: "https://www.example.com/" }),
    });
    const { requestId } = (await answer.json()) as { requestId: string };
    await world.clock.advance({ seconds: 6 });
    expectCompletedAndDelivered(world, requestId);
    world.clock.dispose();
  });
});
