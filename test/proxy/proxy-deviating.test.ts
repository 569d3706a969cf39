// The proxy in front of a service that differs from the contract's assumptions in chosen ways: it
// passes each answer through unchanged and reports each difference contradicted at its pointer,
// with evidence, and nothing it did not change.
import { afterEach, beforeEach, expect, it } from "vitest";
import type { AssumptionReport } from "../../mocks/assumptions/recorder.js";
import { type RunningProxy, startProxyServer } from "../../mocks/proxy/proxy-server.js";
import { httpUpstream } from "./upstreams.js";

const REBUILDS = "/api/integration/partners/hostpanel/rebuilds";
const running = { requestId: "req_1", projectId: "prj_1", status: "running" };

// What this service does differently: the team lookup answers without teamGuid; a new rebuild
// is answered 201 (not 202) without rate-limit headers; a refused credential gets another error
// envelope; the invitations path does not exist.
const answers: Record<string, { status: number; headers?: Record<string, string>; body?: unknown }> = {
  "GET /v1/accounts/team-guid": { status: 200, body: { data: { email: "a@example.com" } } },
  [`POST ${REBUILDS}`]: { status: 201, body: running },
  "GET /v1/si/servers": {
    status: 401,
    headers: { "www-authenticate": 'Bearer realm="dashboard"' },
    body: { detail: "no" },
  },
  "POST /v1/accounts/invitations": {
    status: 404,
    body: { message: "Not found", error: { code: "NOT_FOUND" } },
  },
};

let proxy: RunningProxy;
beforeEach(async () => {
  const upstream = await httpUpstream((req, res) => {
    const answer = answers[`${req.method} ${req.url?.split("?")[0]}`] ?? { status: 500 };
    res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
    res.end(answer.body === undefined ? undefined : JSON.stringify(answer.body));
  });
  proxy = await startProxyServer({
    host: "127.0.0.1",
    port: 0,
    dashboardUpstream: `${upstream.origin}/v1`,
    rebuildUpstream: upstream.origin,
  });
});
afterEach(() => proxy.close());

it("passes the deviating answers through and reports each deviation contradicted, at its pointer", async () => {
  const send = (path: string, init: RequestInit = {}) => fetch(proxy.origin + path, init);
  const team = await send("/v1/accounts/team-guid?email=a%40example.com", {
    headers: { authorization: "Bearer t" },
  });
  expect(team.status).toBe(200);
  expect(await team.json()).toEqual(answers["GET /v1/accounts/team-guid"]?.body);
  const rebuild = await send(REBUILDS, {
    method: "POST",
    headers: { "x-partner-id": "1001", "x-api-key": "k", "content-type": "application/json" },
    body: JSON.stringify({ sourceUrl: "https://www.example.org/" }),
  });
  expect(rebuild.status).toBe(201);
  expect(rebuild.headers.get("ratelimit-limit")).toBeNull();
  const refused = await send("/v1/si/servers", {});
  expect(refused.status).toBe(401);
  expect(await refused.json()).toEqual({ detail: "no" });
  const invite = await send("/v1/accounts/invitations", {
    method: "POST",
    headers: { authorization: "Bearer t", "content-type": "application/json" },
    body: JSON.stringify({ emails: ["b@example.com"] }),
  });
  expect(invite.status).toBe(404);

  const report = (await (await send("/__proxy/report")).json()) as AssumptionReport;
  const status = (document: string, pointer: string) =>
    report.assumptions.find((a) => a.document === document && a.pointer === pointer);
  const contradicted = report.assumptions.filter((a) => a.status === "contradicted");
  expect(status("dashboard", "/components/schemas/TeamGuid/properties/teamGuid")).toMatchObject({
    status: "contradicted",
    evidence: expect.stringContaining("teamGuid"),
  });
  expect(status("rebuild", "/components/headers/RateLimit-Limit")?.status).not.toBe("confirmed");
  expect(status("dashboard", "/components/schemas/ErrorResponse/properties/message")).toMatchObject({
    status: "contradicted",
    evidence: "GET /si/servers → 401: body.message absent",
  });
  expect(status("dashboard", "/paths/~1accounts~1invitations/post")).toMatchObject({
    status: "contradicted",
    evidence: expect.stringContaining("no such operation"),
  });
  // What the service did not change is not contradicted: the team lookup's email, for one.
  expect(status("dashboard", "/components/schemas/TeamGuid/properties/email")?.status).toBe("confirmed");
  expect(contradicted).toHaveLength(4);
  for (const entry of contradicted) expect(entry.evidence).not.toMatch(/@example\.com|Bearer t\b/);
});
