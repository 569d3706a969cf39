import { describe, expect, it } from "vitest";
import { ORIGIN, rebuildClient, recordingFetch, useMock } from "./harness.js";

const { world } = useMock();

const ENDPOINT = `${ORIGIN}/api/integration/partners/hostpanel/rebuilds`;

describe("submit", () => {
  it("a new sourceUrl: created, running, sent with the partner headers and a JSON body", async () => {
    const { fetch, requests } = recordingFetch();
    const rebuild = await rebuildClient(1001, { fetch }).submit({
      sourceUrl: "https://www.example.com/",
      prompt: "Keep the colours.",
    });
    expect(rebuild).toEqual({
      requestId: expect.any(String),
      projectId: expect.any(String),
      status: "running",
      created: true,
    });
    const [request] = requests;
    expect(request?.url).toBe(ENDPOINT);
    expect(request?.method).toBe("POST");
    expect(request?.headers.get("x-partner-id")).toBe("1001");
    expect(request?.headers.get("x-api-key")).toBe("mock-rebuild-key-1001");
    expect(request?.headers.get("content-type")).toBe("application/json");
    expect(await request?.json()).toEqual({
      sourceUrl: "https://www.example.com/",
      prompt: "Keep the colours.",
    });
  });

  it("the same URL again (normalized): the existing rebuild, created false, a new prompt ignored", async () => {
    const client = rebuildClient();
    const first = await client.submit({ sourceUrl: "https://www.example.com/" });
    const again = await client
      .submit({ sourceUrl: "https://WWW.Example.com", prompt: "Something else" })
      .withResponse();
    expect(again.response.status).toBe(200);
    expect(again.data).toEqual({ ...first, created: false });
  });

  it("once completed: success with a previewUrl, or failed without", async () => {
    const client = rebuildClient();
    const ok = await client.submit({ sourceUrl: "https://shop.example.com/" });
    const failed = await client.submit({ sourceUrl: "https://fail.example.com/" });
    await world.clock.advance(5000);
    await expect(client.submit({ sourceUrl: "https://shop.example.com/" })).resolves.toEqual({
      requestId: ok.requestId,
      projectId: ok.projectId,
      status: "success",
      previewUrl: `https://preview.mock.example/projects/${ok.projectId}`,
      created: false,
    });
    const again = await client.submit({ sourceUrl: "https://fail.example.com/" });
    expect(again).toEqual({
      requestId: failed.requestId,
      projectId: failed.projectId,
      status: "failed",
      created: false,
    });
    expect(again).not.toHaveProperty("previewUrl");
  });

  it("a baseUrl with trailing slashes still reaches the endpoint", async () => {
    const { fetch, requests } = recordingFetch();
    await rebuildClient(1001, { baseUrl: `${ORIGIN}///`, fetch }).submit({
      sourceUrl: "https://a.example.com/",
    });
    expect(requests[0]?.url).toBe(ENDPOINT);
  });
});
