// contract-decisions, "Completion and callback": a rebuild completes on the world clock, the callback
// is POSTed to the partner's webhook with its webhook key, every attempt is recorded, and a delivery
// without a 2xx is retried 10, 20, 40 and 80 s after the previous attempt (5 attempts in all), each
// reading the partner's current webhook URL and key.
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { callbackViolations } from "../support/contract-validator.js";
import { PARTNER } from "../support/default-seed.js";
import { submitRebuild } from "./support/client.js";
import { useMswMock } from "./support/harness.js";

const { world, server, call, control, origin } = useMswMock();
const SINK_1001 = `${origin}/__mock/webhook-sink/1001`;
const RECEIVER = "https://receiver.partner.example/hooks/rebuild";

interface Rebuild {
  requestId: string;
  projectId: string;
}

async function start(sourceUrl: string): Promise<Rebuild> {
  const answer = await submitRebuild<Rebuild>(call, { sourceUrl });
  expect(answer.status).toBe(202);
  return answer.body;
}

/** A receiver on the same MSW server that answers with `statuses` in turn (then 200) and records what it got. */
function receiver(statuses: number[]) {
  const received: Array<{ headers: Record<string, string>; body: unknown }> = [];
  server.use(
    http.post(RECEIVER, async ({ request }) => {
      received.push({ headers: Object.fromEntries(request.headers), body: await request.json() });
      return new HttpResponse(null, { status: statuses.shift() ?? 200 });
    }),
  );
  return received;
}

describe("completion after the rebuild delay (5 s of world clock)", () => {
  it("running until 5 s have passed, then success; the callback lands in the built-in sink", async () => {
    const { requestId, projectId } = await start("https://www.example.com/");
    await world.clock.advance(4999);
    expect(await control.sink(PARTNER.ok.id)).toEqual([]);
    expect((await submitRebuild(call, { sourceUrl: "https://www.example.com/" })).body).toMatchObject({
      status: "running",
    });
    await world.clock.advance(1);
    const sink = await control.sink(PARTNER.ok.id);
    const expected = {
      event_type: "partner_project_rebuild_completed",
      request_id: requestId,
      partner_id: 1001,
      project_id: projectId,
      source_url: "https://www.example.com/",
      status: "success",
      preview_url: `https://preview.mock.example/projects/${projectId}`,
    };
    expect(sink).toEqual([
      {
        headers: expect.objectContaining({
          "content-type": "application/json",
          "x-api-key": PARTNER.ok.webhookApiKey,
        }),
        body: expected,
        at: "2026-03-01T12:00:05+00:00",
      },
    ]);
    expect(callbackViolations(sink[0]?.body)).toEqual([]);
    expect(await control.deliveries()).toEqual([
      {
        requestId,
        url: SINK_1001,
        attempt: 1,
        headers: { "content-type": "application/json", "x-api-key": PARTNER.ok.webhookApiKey },
        body: expected,
        responseStatus: 200,
        at: "2026-03-01T12:00:05+00:00",
      },
    ]);
  });

  it("source_url is the URL as first submitted, not its normalized form", async () => {
    await start("HTTPS://WWW.Example.com#intro");
    await control.advance(5);
    const [entry] = await control.sink(PARTNER.ok.id);
    expect(entry?.body).toMatchObject({ source_url: "HTTPS://WWW.Example.com#intro" });
  });

  it("a fail. host ends failed with error_code process_failed and an error_message", async () => {
    const { requestId } = await start("https://fail.example.com/");
    await control.advance(5);
    const [entry] = await control.sink(PARTNER.ok.id);
    expect(entry?.body).toEqual({
      event_type: "partner_project_rebuild_completed",
      request_id: requestId,
      partner_id: 1001,
      project_id: expect.any(String),
      source_url: "https://fail.example.com/",
      status: "failed",
      error_code: "process_failed",
      error_message: expect.any(String),
    });
    expect(callbackViolations(entry?.body)).toEqual([]);
  });

  it("a stall. host keeps running until the control API completes it", async () => {
    const { requestId } = await start("https://stall.example.com/");
    await control.advance(3600);
    expect(await control.deliveries()).toEqual([]);
    const completed = await call({
      method: "POST",
      path: `/__mock/rebuilds/${requestId}/complete`,
      json: { status: "failed", errorCode: "source_unreachable", errorMessage: null },
    });
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ requestId, status: "failed", errorCode: "source_unreachable" });
    const [entry] = await control.sink(PARTNER.ok.id);
    expect(entry?.body).toMatchObject({ status: "failed", error_code: "source_unreachable" });
    expect(entry?.body).not.toHaveProperty("error_message");
    expect(callbackViolations(entry?.body)).toEqual([]);
  });

  it("a failure completed without details sends neither error_code nor error_message", async () => {
    const { requestId } = await start("https://stall.example.com/no-details");
    const completed = await call({
      method: "POST",
      path: `/__mock/rebuilds/${requestId}/complete`,
      json: { status: "failed", errorCode: null, errorMessage: null },
    });
    expect(completed.status).toBe(200);
    const [entry] = await control.sink(PARTNER.ok.id);
    expect(entry?.body).toMatchObject({ request_id: requestId, status: "failed" });
    expect(entry?.body).not.toHaveProperty("error_code");
    expect(entry?.body).not.toHaveProperty("error_message");
    expect(callbackViolations(entry?.body)).toEqual([]);
  });

  it("many rebuilds complete in submission order, one callback each", async () => {
    const started = [];
    for (let n = 0; n < 5; n++) {
      started.push(await start(`https://site-${n}.example.com/`));
      await world.clock.advance(1000);
    }
    await control.advance(5);
    const sink = await control.sink(PARTNER.ok.id);
    expect(sink.map((e) => (e.body as { request_id: string }).request_id)).toEqual(
      started.map((r) => r.requestId),
    );
    expect(sink.map((e) => e.at)).toEqual([5, 6, 7, 8, 9].map((s) => `2026-03-01T12:00:0${s}+00:00`));
  });
});

describe("delivery to the partner's own endpoint, with retries", () => {
  it("a receiver answering 500 gets 5 attempts, 10, 20, 40 and 80 s apart, each recorded", async () => {
    const received = receiver([500, 500, 500, 500, 500]);
    await control.putPartner(PARTNER.ok.id, { webhookUrl: RECEIVER });
    const { requestId } = await start("https://www.example.com/");
    await world.clock.advance(5000);
    // Each retry is due exactly `wait` seconds after the previous attempt: not a millisecond earlier.
    for (const [done, wait] of [10, 20, 40, 80].entries()) {
      await world.clock.advance(wait * 1000 - 1);
      expect(received).toHaveLength(done + 1);
      await world.clock.advance(1);
    }
    await control.advance(3600);
    const deliveries = await control.deliveries();
    expect(deliveries.map((d) => [d.attempt, d.responseStatus, d.at, d.url])).toEqual([
      [1, 500, "2026-03-01T12:00:05+00:00", RECEIVER],
      [2, 500, "2026-03-01T12:00:15+00:00", RECEIVER],
      [3, 500, "2026-03-01T12:00:35+00:00", RECEIVER],
      [4, 500, "2026-03-01T12:01:15+00:00", RECEIVER],
      [5, 500, "2026-03-01T12:02:35+00:00", RECEIVER],
    ]);
    expect(new Set(deliveries.map((d) => d.requestId))).toEqual(new Set([requestId]));
    expect(received).toHaveLength(5);
    for (const attempt of received) {
      expect(attempt.headers).toMatchObject({
        "content-type": "application/json",
        "x-api-key": PARTNER.ok.webhookApiKey,
      });
      expect(callbackViolations(attempt.body)).toEqual([]);
    }
  });

  it("a 2xx ends the delivery; 3xx and 4xx are failures too", async () => {
    const received = receiver([302, 404, 204]);
    await control.putPartner(PARTNER.ok.id, { webhookUrl: RECEIVER });
    await start("https://www.example.com/");
    await control.advance(5 + 10 + 20);
    await control.advance(3600);
    expect((await control.deliveries()).map((d) => d.responseStatus)).toEqual([302, 404, 204]);
    expect(received).toHaveLength(3);
  });

  it("a network error is recorded with responseStatus null and retried", async () => {
    server.use(http.post(RECEIVER, () => HttpResponse.error()));
    await control.putPartner(PARTNER.ok.id, { webhookUrl: RECEIVER });
    await start("https://www.example.com/");
    await control.advance(5 + 10);
    expect((await control.deliveries()).map((d) => d.responseStatus)).toEqual([null, null]);
  });

  it("each attempt reads the partner's current webhook URL and key", async () => {
    receiver([500]);
    await control.putPartner(PARTNER.ok.id, { webhookUrl: RECEIVER });
    await start("https://www.example.com/");
    await control.advance(5);
    await control.putPartner(PARTNER.ok.id, {
      webhookUrl: "{origin}/__mock/webhook-sink/1001",
      webhookApiKey: "rotated-webhook-key",
    });
    await control.advance(10);
    const deliveries = await control.deliveries();
    expect(deliveries.map((d) => [d.url, d.headers["x-api-key"], d.responseStatus])).toEqual([
      [RECEIVER, PARTNER.ok.webhookApiKey, 500],
      [SINK_1001, "rotated-webhook-key", 200],
    ]);
    const [entry] = await control.sink(PARTNER.ok.id);
    expect(entry?.headers["x-api-key"]).toBe("rotated-webhook-key");
  });

  it("an attempt while no webhook is configured is recorded as not sent (url null) and retried", async () => {
    await start("https://www.example.com/");
    await control.putPartner(PARTNER.ok.id, { webhookUrl: null });
    await control.advance(5);
    await control.putPartner(PARTNER.ok.id, { webhookUrl: "{origin}/__mock/webhook-sink/1001" });
    await control.advance(10);
    expect((await control.deliveries()).map((d) => [d.attempt, d.url, d.responseStatus])).toEqual([
      [1, null, null],
      [2, SINK_1001, 200],
    ]);
  });
});
