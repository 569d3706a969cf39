// The proxy in front of the standalone mock: every answer passes through unchanged, the HAR it
// records holds no secret of the run, and the report confirms what the traffic exercised and
// contradicts nothing.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AssumptionReport } from "../../mocks/assumptions/recorder.js";
import { type RunningMockServer, startMockServer } from "../../mocks/http/node-server.js";
import { type RunningProxy, startProxyServer } from "../../mocks/proxy/proxy-server.js";
import { secretForms } from "../../src/core/redact.js";
import { DashboardClient, RebuildClient } from "../../src/index.js";

const TOKEN = "mock-token-unrestricted";
const API_KEY = "mock-rebuild-key-1001";
// The end-to-end headers of one connection or one moment, not of the answer.
const PER_CONNECTION = ["date", "connection", "keep-alive", "transfer-encoding"];

let mock: RunningMockServer;
let proxy: RunningProxy;
let dir: string;
const lines: string[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "proxy-mock-"));
  mock = await startMockServer({ port: 0 });
  proxy = await startProxyServer({
    host: "127.0.0.1",
    port: 0,
    dashboardUpstream: `${mock.origin}/v1`,
    rebuildUpstream: mock.origin,
    record: join(dir, "run.har"),
    report: join(dir, "report.json"),
    log: (line) => lines.push(line),
  });
});

afterEach(async () => {
  await proxy.close();
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
  lines.length = 0;
});

async function exchange(origin: string, path: string, init: RequestInit = {}) {
  const response = await fetch(origin + path, init);
  const headers = [...response.headers].filter(([name]) => !PER_CONNECTION.includes(name));
  return { status: response.status, headers, body: await response.text() };
}

describe("proxy in front of the mock", () => {
  it("passes every answer through unchanged: status, headers and body, successes and refusals alike", async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const rebuild = { "x-partner-id": "1001", "x-api-key": API_KEY, "content-type": "application/json" };
    const cases: [string, RequestInit][] = [
      ["/v1/si/servers?pageSize=2", { headers: auth }],
      ["/v1/si/servers", { headers: {} }],
      ["/v1/si/servers?page=0", { headers: auth }],
      ["/v1/dashboard/api-tokens/999999", { headers: auth }],
      ["/v1/si/servers", { method: "PUT", headers: auth }],
      ["/v1/no/such/path", { headers: auth }],
      [
        "/v1/accounts/invitations",
        { method: "POST", headers: { ...auth, "content-type": "text/plain" }, body: "x" },
      ],
      [
        "/api/integration/partners/hostpanel/rebuilds",
        { method: "POST", headers: { ...rebuild, "x-api-key": "wrong" }, body: "{}" },
      ],
    ];
    for (const [path, init] of cases) {
      // None of these changes the mock's state (a rebuild with the right key would spend its rate limit).
      const direct = await exchange(mock.origin, path, init);
      const proxied = await exchange(proxy.origin, path, init);
      expect(proxied, path).toEqual(direct);
    }
  });

  it("records a HAR 1.2 log with no secret of the run in it, and reports what the SDK's calls confirmed", async () => {
    const dashboard = new DashboardClient({ baseUrl: `${proxy.origin}/v1`, token: TOKEN });
    const rebuild = new RebuildClient({ baseUrl: proxy.origin, partnerId: 1001, apiKey: API_KEY });
    await dashboard.servers.list();
    const created = await dashboard.apiTokens.create({ name: "proxy test", claims: [] });
    const fresh = new DashboardClient({ baseUrl: `${proxy.origin}/v1`, token: created.token });
    await fresh.apiTokens.get(created.id);
    await dashboard.apiTokens.delete(created.id);
    await rebuild.submit({ sourceUrl: "https://www.example.org/" });
    await rebuild.submit({ sourceUrl: "https://www.example.org/" });

    const text = readFileSync(join(dir, "run.har"), "utf8");
    const har = JSON.parse(text) as { log: { version: string; creator: { name: string }; entries: Entry[] } };
    expect(har.log.version).toBe("1.2");
    expect(har.log.entries).toHaveLength(6);
    const [first] = har.log.entries;
    expect(first?.request).toMatchObject({ method: "GET", url: `${mock.origin}/v1/si/servers` });
    // Header names as the client wrote them (the SDK's Headers sends them lower-cased).
    const authorization = first?.request.headers.filter(({ name }) => name.toLowerCase() === "authorization");
    expect(authorization?.map(({ value }) => value)).toEqual(["[REDACTED]"]);
    expect(first?.response.status).toBe(200);
    expect(JSON.parse(first?.response.content.text ?? "")).toMatchObject({ totalCount: expect.any(Number) });
    const creation = har.log.entries[1]?.response.content.text ?? "";
    expect(JSON.parse(creation)).toMatchObject({ data: { id: created.id, token: "[REDACTED]" } });
    // Every secret of the run, in every form a server could echo it.
    for (const secret of [TOKEN, API_KEY, created.token]) {
      for (const form of secretForms([secret])) expect(text, form).not.toContain(form);
    }

    const report = (await (await fetch(`${proxy.origin}/__proxy/report`)).json()) as AssumptionReport;
    expect(report.assumptions.filter((a) => a.status === "contradicted")).toEqual([]);
    expect(report.violations).toEqual([]);
    const confirmed = report.assumptions.filter((a) => a.status === "confirmed").map((a) => a.pointer);
    expect(confirmed).toContain("/paths/~1dashboard~1api-tokens~1{id}/get");
    expect(confirmed).toContain("/components/headers/RateLimit-Limit");
    // The same report in the file, written by the GET and again on close.
    expect(JSON.parse(readFileSync(join(dir, "report.json"), "utf8"))).toEqual(report);
    await proxy.close();
    expect(JSON.parse(readFileSync(join(dir, "report.json"), "utf8"))).toEqual(report);
    expect(JSON.parse(readFileSync(join(dir, "run.har"), "utf8")).log.entries).toHaveLength(6);
  });

  it("reports a request that breaks the contract as a violation, and still forwards it", async () => {
    const proxied = await exchange(proxy.origin, "/v1/si/servers?pageSize=1000", {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(proxied.status).toBe(400);
    const report = proxy.report();
    expect(report.violations).toContainEqual(
      expect.objectContaining({
        document: "dashboard",
        pointer: "/paths/~1si~1servers/get",
        exchange: "GET /si/servers → 400",
        evidence: "GET /si/servers sent query pageSize the contract refuses (too_big)",
      }),
    );
  });

  it("the mock's edge: a foreign Host is refused, a loopback page's preflight answered, CORS headers on answers", async () => {
    const host = await rawGet(`${proxy.origin}/v1/si/servers`, { host: "evil.example" });
    expect(host.status).toBe(403);
    expect(JSON.parse(host.body)).toMatchObject({ error: { code: "FORBIDDEN" } });
    const preflight = await fetch(`${proxy.origin}/v1/si/servers`, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:5173", "access-control-request-method": "GET" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    const answer = await fetch(`${proxy.origin}/v1/si/servers`, {
      headers: { origin: "http://localhost:5173", authorization: `Bearer ${TOKEN}` },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    const foreign = await fetch(`${proxy.origin}/v1/si/servers`, {
      headers: { origin: "https://elsewhere.example", authorization: `Bearer ${TOKEN}` },
    });
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
    expect(lines.some((line) => line.includes("(refused: host)"))).toBe(true);
  });

  it("--cors-origin: that origin may call the proxy too", async () => {
    const allowing = await startProxyServer({
      host: "127.0.0.1",
      port: 0,
      dashboardUpstream: `${mock.origin}/v1`,
      corsOrigins: ["https://app.example.test"],
    });
    try {
      const answer = await fetch(`${allowing.origin}/v1/si/servers`, {
        headers: { origin: "https://app.example.test", authorization: `Bearer ${TOKEN}` },
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("access-control-allow-origin")).toBe("https://app.example.test");
      expect(answer.headers.get("access-control-expose-headers")).toContain("RateLimit-Limit");
    } finally {
      await allowing.close();
    }
  });
});

/** A GET with headers fetch will not send (Host). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8");
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    }).on("error", reject);
  });
}

interface Entry {
  request: { method: string; url: string; headers: { name: string; value: string }[] };
  response: { status: number; content: { text?: string } };
}
