// The clock never passes 9999-12-31T23:59:59Z (issue 11, point 6), over real HTTP: large advances
// one after another until refused (400 with a field error at `seconds`), and every timestamp the
// mock writes at the edge of time is still RFC 3339.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClock, type RunningMockServer, startMockServer } from "../../mocks/node.js";
import { FROZEN_AT, PARTNER, TOKEN } from "../support/default-seed.js";

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const TEN_YEARS = 10 * 365 * 24 * 3600;

let mock: RunningMockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, clock: createClock({ frozenAt: FROZEN_AT }) });
});
afterAll(() => mock.close());

const advance = async (seconds: number) => {
  const response = await fetch(`${mock.origin}/__mock/clock/advance`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ seconds }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

/** Every string in `value` that looks like a timestamp (starts with a year). */
function timestamps(value: unknown, found: string[] = []): string[] {
  if (typeof value === "string" && /^[+-]?\d{4,}-\d{2}-\d{2}T/.test(value)) found.push(value);
  else if (Array.isArray(value)) for (const item of value) timestamps(item, found);
  else if (typeof value === "object" && value !== null)
    for (const item of Object.values(value)) timestamps(item, found);
  return found;
}

describe("clock bounds", () => {
  it("ten-year advances one after another are refused once the next would pass 9999-12-31T23:59:59Z", async () => {
    let answer = await advance(TEN_YEARS);
    let steps = 0;
    while (answer.status === 200) {
      expect(answer.body.now).toMatch(RFC3339);
      answer = await advance(TEN_YEARS);
      steps++;
      if (steps > 1000) throw new Error("the clock was never refused");
    }
    expect(steps).toBeGreaterThan(700);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      message: expect.any(String),
      error: { code: "VALIDATION_FAILED" },
      errors: [
        {
          type: "too_big",
          path: "seconds",
          message: expect.stringMatching(
            /^must be at most \d+ seconds \(the clock stops at 9999-12-31T23:59:59Z\)$/,
          ),
        },
      ],
    });
    const rest = Number(
      /at most (\d+)/.exec(String((answer.body.errors as Array<{ message: string }>)[0]?.message))?.[1],
    );
    expect((await advance(rest)).body).toEqual({ now: "9999-12-31T23:59:59+00:00" });
    expect((await advance(1)).status).toBe(400);
    expect((await advance(0)).body).toEqual({ now: "9999-12-31T23:59:59+00:00" });
  });

  it("at the edge of time every answer is still well-formed and every timestamp RFC 3339", async () => {
    const submitted = await fetch(`${mock.origin}/api/integration/partners/hostpanel/rebuilds`, {
      method: "POST",
      headers: {
        "x-partner-id": PARTNER.ok.id,
        "x-api-key": PARTNER.ok.apiKey,
        "content-type": "application/json",
      },
      body: JSON.stringify({ sourceUrl: "https://www.example.com/" }),
    });
    expect(submitted.status).toBe(202);
    const created = await fetch(`${mock.dashboardBaseUrl}/dashboard/api-tokens`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN.unrestricted}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "at the end of time", claims: [] }),
    });
    expect(created.status).toBe(201);
    for (const path of ["/__mock/state", "/__mock/snapshot", "/__mock/deliveries"]) {
      const response = await fetch(`${mock.origin}${path}`);
      expect(response.status).toBe(200);
      for (const text of timestamps(await response.json())) expect(text, path).toMatch(RFC3339);
    }
    const tokens = await fetch(`${mock.dashboardBaseUrl}/dashboard/api-tokens`, {
      headers: { authorization: `Bearer ${TOKEN.unrestricted}` },
    });
    expect(tokens.status).toBe(200);
    for (const text of timestamps(await tokens.json())) expect(text).toMatch(RFC3339);
  });
});
