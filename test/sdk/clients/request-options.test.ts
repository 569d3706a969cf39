// Per-call options as in openai-node (signal, timeoutMs, maxRetries, headers), each checked like
// the client's option of the same name; and error messages as users expect them: field errors
// listed once, connection failures naming the host.
import { describe, expect, it } from "vitest";
import { ConnectionError, InternalServerError, ValidationError } from "../../../src/index.js";
import { misbehaving, rejection, reply, TOKEN } from "../misbehaving/server.js";
import { closedPort, dashboardClient, useMock } from "./harness.js";

const unavailable = { message: "busy", error: { code: "INTERNAL" } };
const page = { totalCount: 0, data: [] };

describe("maxRetries per call", () => {
  it("overrides the client's, both ways", async () => {
    const m = await misbehaving(reply(503, unavailable, { "retry-after": "0" }));
    const client = m.dashboard({ maxRetries: 0 });
    expect(await rejection(client.servers.list({}, { maxRetries: 2 }))).toBeInstanceOf(InternalServerError);
    expect(m.requests).toHaveLength(3);
    expect(
      await rejection(m.dashboard({ maxRetries: 3 }).servers.list({}, { maxRetries: 0 })),
    ).toBeInstanceOf(InternalServerError);
    expect(m.requests).toHaveLength(4);
  });

  it.each([-1, 1.5, Number.NaN, "2" as never])("%s: a TypeError, nothing sent", async (maxRetries) => {
    const m = await misbehaving(reply(200, page));
    const error = await rejection(m.dashboard().servers.list({}, { maxRetries }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe("maxRetries must be an integer of 0 or more");
    expect(m.requests).toHaveLength(0);
  });
});

describe("headers per call", () => {
  it("are added to the client's and win over them", async () => {
    const m = await misbehaving(reply(200, page));
    await m
      .dashboard({ headers: { "X-Trace": "client", "X-Client": "1" } })
      .servers.list({}, { headers: { "x-trace": "call", "Idempotency-Key": "abc" } });
    const [request] = m.requests;
    expect(request?.headers["x-trace"]).toBe("call");
    expect(request?.headers["x-client"]).toBe("1");
    expect(request?.headers["idempotency-key"]).toBe("abc");
  });

  it("cannot replace the credentials, whatever their case", async () => {
    const m = await misbehaving(reply(202, { requestId: "r", projectId: "p", status: "running" }));
    await m
      .dashboard()
      .servers.list({}, { headers: { AUTHORIZATION: "Bearer mine" } })
      .catch(() => {});
    await m
      .rebuild()
      .submit(
        { sourceUrl: "https://a.example.com/" },
        { headers: { "x-api-key": "other", "X-PARTNER-ID": "7" } },
      );
    expect(m.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(m.requests[1]?.headers["x-partner-id"]).toBe("1001");
    expect(m.requests[1]?.headers["x-api-key"]).not.toBe("other");
  });

  it("an invalid one is a TypeError that does not quote it, and nothing is sent", async () => {
    const m = await misbehaving(reply(200, page));
    const error = await rejection(
      m.dashboard().servers.list({}, { headers: { "X-Note": "line\nbreak-value" } }),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe("DashboardClient: headers must map header names to valid header values");
    expect(m.requests).toHaveLength(0);
  });
});

describe("messages", () => {
  it("a ConnectionError names method, host and path, never the query string", async () => {
    const port = await closedPort();
    const client = dashboardClient(undefined, { baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
    const error = await rejection(client.accounts.getTeamGuid("secret.person@example.com"));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toBe(`GET http://127.0.0.1:${port}/v1/accounts/team-guid failed: ECONNREFUSED`);
    expect(error.message).not.toContain("secret.person");
  });

  describe("against the mock", () => {
    useMock();

    it("field errors appear once, even when the server's message names one of them", async () => {
      const error = await rejection(dashboardClient().servers.list({ pageSize: 101 }));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.message).toBe(
        `GET /v1/si/servers failed with 400 VALIDATION_FAILED: Validation failed (pageSize: must be at most 100)`,
      );
      const several = await rejection(
        dashboardClient().servers.connect([
          { address: "ftp://x.example.com", product: "" },
          { address: "nope", product: "plesk" },
        ]),
      );
      const listed = (several as ValidationError).fieldErrors.map((e) => `${e.path}: ${e.message}`);
      expect(listed.length).toBeGreaterThan(1);
      for (const text of listed) expect(several.message.split(text).length - 1).toBe(1);
    });
  });
});
