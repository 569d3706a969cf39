import { describe, expect, it } from "vitest";
import { DEFAULT_ERROR_MESSAGE } from "../../../mocks/domain/rebuild/outcome.js";
import { domainError, SINK_1001, setup, T0 } from "./fixture.js";

describe("rebuild completion", () => {
  it("succeeds 5 s after submission and sends the success callback", async () => {
    const { clock, domain, partner, posts } = setup();
    const { rebuild } = domain.submit(partner, { sourceUrl: "https://www.example.com/shop" });
    await clock.advance(4999);
    expect(domain.rebuilds()[0]?.status).toBe("running");
    expect(posts).toHaveLength(0);

    await clock.advance(1);
    const previewUrl = `https://preview.mock.example/projects/${rebuild.projectId}`;
    expect(domain.rebuilds()[0]).toMatchObject({
      status: "success",
      previewUrl,
      createdAt: "2026-11-22T00:00:00+00:00",
      completedAt: "2026-11-22T00:00:05+00:00",
    });
    expect(posts).toHaveLength(1);
    const [post] = posts;
    expect(post?.url).toBe(SINK_1001);
    expect(post?.headers).toEqual({
      "content-type": "application/json",
      "x-api-key": "mock-webhook-key-1001",
    });
    expect(JSON.parse(post?.body ?? "")).toStrictEqual({
      event_type: "partner_project_rebuild_completed",
      request_id: rebuild.requestId,
      partner_id: 1001,
      project_id: rebuild.projectId,
      source_url: "https://www.example.com/shop",
      status: "success",
      preview_url: previewUrl,
    });
  });

  it("fails a host starting with fail. and sends process_failed", async () => {
    const { clock, domain, partner, posts } = setup();
    const { rebuild } = domain.submit(partner, { sourceUrl: "https://fail.example.com/" });
    await clock.advance(5000);
    expect(domain.rebuilds()[0]).toMatchObject({
      status: "failed",
      errorCode: "process_failed",
      errorMessage: DEFAULT_ERROR_MESSAGE,
    });
    expect(domain.rebuilds()[0]).not.toHaveProperty("previewUrl");
    expect(JSON.parse(posts[0]?.body ?? "")).toStrictEqual({
      event_type: "partner_project_rebuild_completed",
      request_id: rebuild.requestId,
      partner_id: 1001,
      project_id: rebuild.projectId,
      source_url: "https://fail.example.com/",
      status: "failed",
      error_code: "process_failed",
      error_message: DEFAULT_ERROR_MESSAGE,
    });
  });

  it("keeps a host starting with stall. running until the control API completes it", async () => {
    const { clock, domain, partner, posts } = setup();
    const { rebuild } = domain.submit(partner, { sourceUrl: "https://stall.example.com/" });
    await clock.advance(24 * 3_600_000);
    expect(domain.rebuilds()[0]?.status).toBe("running");
    expect(posts).toHaveLength(0);

    const completed = await domain.complete(rebuild.requestId, {});
    expect(completed).toMatchObject({ status: "success", previewUrl: expect.stringMatching(/^https:\/\//) });
    expect(domain.deliveries()).toHaveLength(1);
    expect(domain.deliveries()[0]?.responseStatus).toBe(200);
  });

  it("lets the control API fail a rebuild with its own error or none", async () => {
    const { domain, partner, posts } = setup();
    const a = domain.submit(partner, { sourceUrl: "https://stall.a.com/" }).rebuild;
    const b = domain.submit(partner, { sourceUrl: "https://stall.b.com/" }).rebuild;
    const c = domain.submit(partner, { sourceUrl: "https://stall.c.com/" }).rebuild;
    await domain.complete(a.requestId, {
      status: "failed",
      errorCode: "source_unreachable",
      errorMessage: "DNS",
    });
    await domain.complete(b.requestId, { status: "failed", errorCode: null, errorMessage: null });
    const third = await domain.complete(c.requestId, { status: "failed" });
    expect(third).toMatchObject({ errorCode: "process_failed", errorMessage: DEFAULT_ERROR_MESSAGE });
    const bodies = posts.map((p) => JSON.parse(p.body));
    expect(bodies[0]).toMatchObject({
      status: "failed",
      error_code: "source_unreachable",
      error_message: "DNS",
    });
    expect(bodies[1]).not.toHaveProperty("error_code");
    expect(bodies[1]).not.toHaveProperty("error_message");
    expect(bodies[1]).not.toHaveProperty("preview_url");
    expect(bodies[2]).toMatchObject({ error_code: "process_failed" });
  });

  it("cancels the scheduled completion when the control API completes first", async () => {
    const { clock, domain, partner, posts } = setup();
    const { rebuild } = domain.submit(partner, { sourceUrl: "https://example.com/" });
    await clock.advance(1000);
    await domain.complete(rebuild.requestId, { status: "failed" });
    await clock.advance(60_000);
    expect(domain.rebuilds()[0]?.status).toBe("failed");
    expect(posts).toHaveLength(1);
  });

  it("answers CONFLICT for a finished rebuild and NOT_FOUND for an unknown one", async () => {
    const { clock, domain, partner } = setup();
    const { rebuild } = domain.submit(partner, { sourceUrl: "https://example.com/" });
    expect((await domainError(() => domain.complete("no-such-request", {}))).code).toBe("NOT_FOUND");
    await clock.advance(5000);
    expect((await domainError(() => domain.complete(rebuild.requestId, {}))).code).toBe("CONFLICT");
  });

  it("validates the completion body before looking the rebuild up", async () => {
    const { domain } = setup();
    for (const [body, expected] of [
      [{ status: "done" }, ["invalid_value@status"]],
      [{ status: "success", errorCode: "x" }, ["unknown_field@errorCode"]],
      [{ errorMessage: "x" }, ["unknown_field@errorMessage"]],
      [{ status: "failed", errorMessage: 5 }, ["invalid_type@errorMessage"]],
      [{ status: "failed", errorCode: "" }, ["too_small@errorCode"]],
      [{ previewUrl: "https://x.example.com/" }, ["unknown_field@previewUrl"]],
      [[], ["invalid_type@"]],
      [null, ["invalid_type@"]],
    ] as const) {
      const error = await domainError(() => domain.complete("no-such-request", body));
      expect(error.code).toBe("VALIDATION_FAILED");
      expect(error.details.fieldErrors?.map((e) => `${e.type}@${e.path}`)).toEqual(expected);
    }
  });

  it("runs a rebuild for the configured delay", async () => {
    const { clock, domain, partner } = setup({ rebuildDelayMs: 60_000 });
    domain.submit(partner, { sourceUrl: "https://example.com/" });
    await clock.advance(59_999);
    expect(domain.rebuilds()[0]?.status).toBe("running");
    await clock.advance(1);
    expect(domain.rebuilds()[0]?.status).toBe("success");
    expect(clock.now()).toBe(T0 + 60_000);
  });

  it("records the generated project under the system account", () => {
    const { domain, partner } = setup();
    const { rebuild } = domain.submit(partner, { sourceUrl: "https://example.com/" });
    expect(domain.projects()).toEqual([
      {
        projectId: rebuild.projectId,
        partnerId: 1001,
        requestId: rebuild.requestId,
        owner: { kind: "system" },
        copiedFrom: null,
        createdAt: "2026-11-22T00:00:00+00:00",
      },
    ]);
  });
});
