// What only the MSW adapter has to get right: it answers for the mock's paths and leaves every other
// request (body included) to the handlers after it, and it mounts the APIs at the base URLs given.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { unhandledRequestOption } from "../../mocks/http/msw-handlers.js";
import { createClock, createHandlers, createMockWorld } from "../../mocks/index.js";
import { FROZEN_AT, PARTNER, TOKEN } from "../support/default-seed.js";

const world = createMockWorld({ clock: createClock({ frozenAt: FROZEN_AT }) });
const DASHBOARD = "https://dashboard.example.test/api/v1";
const REBUILD = "https://rebuild.example.test";
const server = setupServer(
  ...createHandlers(world, { dashboardBaseUrl: DASHBOARD, rebuildBaseUrl: REBUILD }),
  // Listed after the mock's handlers, so they only see what the mock passed on.
  http.post(`${world.origin}/app/echo`, async ({ request }) => HttpResponse.json(await request.json())),
  http.post("https://elsewhere.test/echo", async ({ request }) => HttpResponse.text(await request.text())),
  http.get(`${world.origin}/v1/si/servers`, () => HttpResponse.json({ handledBy: "next handler" })),
);
// The option under the name this msw reads (2 or 3: vitest.msw3.config.ts runs this file with msw 3).
beforeAll(() => server.listen(unhandledRequestOption("error")));
afterEach(() => world.reset());
afterAll(() => server.close());

describe("MSW adapter", () => {
  it("names the unhandled-request option as the installed msw reads it: a request nothing answers fails", async () => {
    // A real server that would answer: with the other major's name the option is ignored, msw lets
    // the request through, and it gets this server's 200.
    const network = createServer((_request, response) => response.end("from the network"));
    await new Promise<void>((resolve) => network.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => network.close(() => resolve())));
    const { port } = network.address() as AddressInfo;
    await expect(fetch(`http://127.0.0.1:${port}/nothing-handles-this`)).rejects.toThrow();
  });

  it("passes requests outside the mock's paths on with their body unread", async () => {
    const sameOrigin = await fetch(`${world.origin}/app/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ hello: "world" }),
    });
    expect(await sameOrigin.json()).toEqual({ hello: "world" });
    const otherOrigin = await fetch("https://elsewhere.test/echo", { method: "POST", body: "plain text" });
    expect(await otherOrigin.text()).toBe("plain text");
  });

  it("serves the dashboard and rebuild APIs at the base URLs given", async () => {
    const servers = await fetch(`${DASHBOARD}/si/servers`, {
      headers: { authorization: `Bearer ${TOKEN.unrestricted}` },
    });
    expect(servers.status).toBe(200);
    expect(await servers.json()).toMatchObject({ totalCount: 3 });
    const unknown = await fetch(`${DASHBOARD}/nope`);
    expect(unknown.status).toBe(404);
    const rebuild = await fetch(`${REBUILD}/api/integration/partners/hostpanel/rebuilds`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-partner-id": PARTNER.ok.id,
        "x-api-key": PARTNER.ok.apiKey,
      },
      body: JSON.stringify({ sourceUrl: "https://www.example.com/" }),
    });
    expect(rebuild.status).toBe(202);
  });

  it("leaves the default dashboard base alone once another is given", async () => {
    const answer = await fetch(`${world.origin}/v1/si/servers`);
    expect(await answer.json()).toEqual({ handledBy: "next handler" });
  });

  it("keeps the control API and the built-in sink at the world's origin", async () => {
    await fetch(`${REBUILD}/api/integration/partners/hostpanel/rebuilds`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-partner-id": PARTNER.ok.id,
        "x-api-key": PARTNER.ok.apiKey,
      },
      body: JSON.stringify({ sourceUrl: "https://www.example.com/" }),
    });
    await world.clock.advance(5000);
    const sink = await fetch(`${world.origin}/__mock/webhook-sink/1001`);
    expect(await sink.json()).toMatchObject({ data: [{ body: { status: "success" } }] });
  });

  it("answers HEAD on a GET operation with the GET answer's status and headers and no body", async () => {
    const headers = { authorization: `Bearer ${TOKEN.unrestricted}` };
    const get = await fetch(`${DASHBOARD}/si/servers`, { headers });
    const head = await fetch(`${DASHBOARD}/si/servers`, { method: "HEAD", headers });
    expect(head.status).toBe(get.status);
    expect(await head.text()).toBe("");
    expect(head.headers.get("content-type")).toBe("application/json");
    expect(Number(head.headers.get("content-length"))).toBe(
      new TextEncoder().encode(await get.text()).length,
    );
    const unauthorized = await fetch(`${DASHBOARD}/si/servers`, { method: "HEAD" });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("www-authenticate")).toBe('Bearer realm="dashboard"');
  });
});
