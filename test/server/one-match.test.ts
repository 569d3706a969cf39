// One path for every request (decisions/049): the standalone server matches a request once (the
// adapter reads the body up to the matched operation's limit and hands the match back to the
// dispatcher) and checks each input once. Every router the mock compiles is counted here, and the
// submission's compiled body validator is watched.
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createClock, type RunningMockServer, startMockServer } from "../../mocks/node.js";
import type { Router } from "../../mocks/routes/router.js";
import { operations as validators } from "../../src/generated/rebuild-validators.js";
import { FROZEN_AT, PARTNER } from "../support/default-seed.js";

const matches = vi.hoisted(() => ({ count: 0 }));

vi.mock(import("../../mocks/routes/router.js"), async (importOriginal) => {
  const original = await importOriginal();
  return {
    ...original,
    compileRoutes: <World>(...args: Parameters<typeof original.compileRoutes<World>>): Router<World> => {
      const router = original.compileRoutes(...args);
      return {
        ...router,
        match(method, path) {
          matches.count++;
          return router.match(method, path);
        },
      };
    },
  };
});

let server: RunningMockServer;

beforeAll(async () => {
  server = await startMockServer({ port: 0, clock: createClock({ frozenAt: FROZEN_AT }) });
});

afterAll(async () => {
  await server.close();
});

it("matches a rebuild submission once and checks its body once", async () => {
  const body = validators.submitRebuild.body;
  if (!body) throw new Error("submitRebuild has a body validator");
  const validate = vi.spyOn(body, "validate");
  matches.count = 0;
  const response = await fetch(`${server.rebuildBaseUrl}/api/integration/partners/hostpanel/rebuilds`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-partner-id": PARTNER.ok.id,
      "x-api-key": PARTNER.ok.apiKey,
    },
    body: JSON.stringify({ sourceUrl: "https://www.example.com/one-match" }),
  });
  expect(response.status).toBe(202);
  expect(matches.count).toBe(1);
  expect(validate).toHaveBeenCalledTimes(1);
  validate.mockRestore();
});

it("matches a GET once too, and the console page, a route of the control API, once", async () => {
  matches.count = 0;
  expect((await fetch(`${server.origin}/__mock/state`)).status).toBe(200);
  expect(matches.count).toBe(1);
  matches.count = 0;
  const page = await fetch(`${server.origin}/__mock/console`);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-security-policy")).not.toBeNull();
  await page.text();
  expect(matches.count).toBe(1);
});
