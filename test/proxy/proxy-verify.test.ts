// `verify` run through the proxy in front of the mock: the proxy passes every probe through, and
// its report of the traffic it saw agrees with verify's own: nothing contradicted by either, and
// every element the proxy confirms verify confirms too.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import type { AssumptionReport } from "../../mocks/assumptions/recorder.js";
import { startMockServer } from "../../mocks/http/node-server.js";
import { startProxyServer } from "../../mocks/proxy/proxy-server.js";
import { runVerify } from "../../mocks/server/verify.js";

it("reports the same as verify for the traffic it saw", { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "proxy-verify-"));
  const mock = await startMockServer({ port: 0 });
  const proxy = await startProxyServer({
    host: "127.0.0.1",
    port: 0,
    dashboardUpstream: `${mock.origin}/v1`,
    rebuildUpstream: mock.origin,
    record: join(dir, "run.har"),
  });
  try {
    const out: string[] = [];
    const code = await runVerify(
      [
        "--dashboard-url",
        `${proxy.origin}/v1`,
        "--token",
        "mock-token-unrestricted",
        "--rebuild-url",
        proxy.origin,
        "--partner-id",
        "1001",
        "--api-key",
        "mock-rebuild-key-1001",
        "--allow-writes",
        "--source-url",
        "https://www.example.org/",
        "--report",
        join(dir, "verify.json"),
      ],
      {},
      { output: { out: (line) => out.push(line), err: (line) => out.push(line) }, timeoutMs: 10_000 },
    );
    expect(code, out.join("\n")).toBe(0);
    const verified = JSON.parse(readFileSync(join(dir, "verify.json"), "utf8")) as AssumptionReport;
    const proxied = proxy.report();
    const statusIn = (report: AssumptionReport, status: string) =>
      report.assumptions.filter((a) => a.status === status).map((a) => `${a.document} ${a.pointer}`);
    expect(statusIn(verified, "contradicted")).toEqual([]);
    expect(statusIn(proxied, "contradicted")).toEqual([]);
    const confirmedByProxy = statusIn(proxied, "confirmed");
    expect(confirmedByProxy.length).toBeGreaterThanOrEqual(40);
    expect(statusIn(verified, "confirmed")).toEqual(expect.arrayContaining(confirmedByProxy));
    // verify sends requests the contract refuses on purpose; the proxy, which cannot know the
    // purpose, reports them as requests that break the contract, and nothing else.
    for (const violation of proxied.violations)
      expect(violation.evidence).toMatch(/ sent .* the contract refuses /);
    // The whole run is in the HAR, and no secret of it.
    const har = readFileSync(join(dir, "run.har"), "utf8");
    expect(JSON.parse(har).log.entries.length).toBeGreaterThan(10);
    for (const secret of ["mock-token-unrestricted", "mock-rebuild-key-1001"])
      expect(har).not.toContain(secret);
  } finally {
    await proxy.close();
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
