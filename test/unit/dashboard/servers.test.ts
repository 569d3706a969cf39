import { describe, expect, it } from "vitest";
import { expectCode, fieldErrors, q, SERVER_1, setup } from "./helpers.js";

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("server inventory", () => {
  it("lists the caller's team's servers in connection order", () => {
    const { domain, as } = setup();
    const page = domain.listServers(as("mock-token-unrestricted"), q());
    expect(page.totalCount).toBe(3);
    expect(page.data[0]).toEqual({
      guid: SERVER_1,
      product: "plesk",
      address: "https://panel1.example.com:8443",
      active: true,
    });
    expect(page.data.map((s) => s.address)).toEqual([
      "https://panel1.example.com:8443",
      "https://panel2.example.com:8443",
      "https://panel3.example.com:2083",
    ]);
    expect(domain.listServers(as("mock-token-other-user"), q())).toEqual({ totalCount: 0, data: [] });
  });

  it("paginates with the shared page rules", () => {
    const { domain, as } = setup();
    const caller = as("mock-token-unrestricted");
    expect(domain.listServers(caller, q("page=2&pageSize=2")).data.map((s) => s.product)).toEqual(["cpanel"]);
    expect(domain.listServers(caller, q("page=3&pageSize=2"))).toEqual({ totalCount: 3, data: [] });
    expect(fieldErrors(() => domain.listServers(caller, q("pageSize=101&page=a")))).toEqual([
      ["invalid_type", "page"],
      ["too_big", "pageSize"],
    ]);
  });

  it("connects servers as active with fresh GUIDs, appended in order", () => {
    const { domain, as } = setup();
    const caller = as("mock-token-unrestricted");
    const { data } = domain.connectServers(caller, {
      servers: [
        { address: "https://new1.example.com:8443", product: "plesk" },
        { address: "http://10.0.0.5", product: "custom panel" },
      ],
    });
    expect(data).toHaveLength(2);
    expect(data[0]).toEqual({
      guid: expect.stringMatching(GUID),
      product: "plesk",
      address: "https://new1.example.com:8443",
      active: true,
    });
    expect(data[0]?.guid).not.toBe(data[1]?.guid);
    const listed = domain.listServers(caller, q()).data;
    expect(listed.slice(3)).toEqual(data);
    expect(domain.listServers(as("mock-token-other-user"), q()).totalCount).toBe(0);
  });

  it("validates the connect body, collecting every error", () => {
    const { domain, as } = setup();
    const caller = as("mock-token-unrestricted");
    const errorsOf = (body: unknown) => fieldErrors(() => domain.connectServers(caller, body));
    expect(errorsOf(undefined)).toEqual([["required", ""]]);
    expect(errorsOf([])).toEqual([["invalid_type", ""]]);
    expect(errorsOf({})).toEqual([["required", "servers"]]);
    expect(errorsOf({ servers: {} })).toEqual([["invalid_type", "servers"]]);
    expect(errorsOf({ servers: [] })).toEqual([["too_small", "servers"]]);
    const server = { address: "https://a.example.com", product: "plesk" };
    expect(errorsOf({ servers: Array(101).fill(server) })).toEqual([["too_big", "servers"]]);
    expect(domain.connectServers(caller, { servers: Array(100).fill(server) }).data).toHaveLength(100);
    expect(
      errorsOf({
        servers: [
          "x",
          {},
          { address: 1, product: "" },
          { address: "ftp://a.example.com", product: 2, extra: 0 },
          { address: "/relative", product: "p".repeat(101) },
          { address: " https://a.example.com", product: "plesk" },
          { address: `https://a.example.com/${"x".repeat(2048)}`, product: "plesk" },
        ],
        other: 1,
      }),
    ).toEqual([
      ["unknown_field", "other"],
      ["invalid_type", "servers.0"],
      ["required", "servers.1.address"],
      ["required", "servers.1.product"],
      ["invalid_type", "servers.2.address"],
      ["too_small", "servers.2.product"],
      ["unknown_field", "servers.3.extra"],
      ["invalid_format", "servers.3.address"],
      ["invalid_type", "servers.3.product"],
      ["invalid_format", "servers.4.address"],
      ["too_big", "servers.4.product"],
      ["invalid_format", "servers.5.address"],
      ["too_big", "servers.6.address"],
    ]);
  });

  it("a rejected connect request connects nothing", () => {
    const { domain, as } = setup();
    const caller = as("mock-token-unrestricted");
    expectCode(
      () =>
        domain.connectServers(caller, {
          servers: [
            { address: "https://ok.example.com", product: "plesk" },
            { address: "bad", product: "x" },
          ],
        }),
      "VALIDATION_FAILED",
    );
    expect(domain.listServers(caller, q()).totalCount).toBe(3);
  });

  it("gives a list asked again as the same answer until a server, the team or the page window changes", () => {
    const { domain, as } = setup();
    const caller = as("mock-token-unrestricted");
    const addresses = () => domain.listServers(caller, q()).data.map((s) => s.address);
    const first = domain.listServers(caller, q());
    expect(domain.listServers(caller, q())).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.data)).toBe(true);
    expect(domain.listServers(caller, q("pageSize=2")).data).toHaveLength(2);
    expect(domain.listServers(as("mock-token-other-user"), q()).totalCount).toBe(0);
    domain.connectServers(caller, {
      servers: [{ address: "https://new1.example.com:8443", product: "plesk" }],
    });
    expect(addresses()).toContain("https://new1.example.com:8443");
    domain.deleteServer(caller, SERVER_1);
    expect(domain.listServers(caller, q()).data.map((s) => s.guid)).not.toContain(SERVER_1);
    domain.reset();
    expect(addresses()).toEqual(first.data.map((s) => s.address));
    expect(first.totalCount).toBe(3);
  });

  it("deletes a server by GUID, case-insensitively", () => {
    const { domain, as } = setup();
    const caller = as("mock-token-unrestricted");
    domain.deleteServer(caller, SERVER_1.toUpperCase());
    expect(domain.listServers(caller, q()).data.map((s) => s.guid)).not.toContain(SERVER_1);
    expectCode(() => domain.deleteServer(caller, SERVER_1), "NOT_FOUND");
  });

  it("answers NOT_FOUND for an unknown GUID, a non-GUID, or another team's server", () => {
    const { domain, as } = setup();
    for (const guid of ["00000000-0000-4000-8000-000000000000", "not-a-guid", "", `${SERVER_1}x`]) {
      expectCode(() => domain.deleteServer(as("mock-token-unrestricted"), guid), "NOT_FOUND");
    }
    expectCode(() => domain.deleteServer(as("mock-token-other-user"), SERVER_1), "NOT_FOUND");
    expect(domain.listServers(as("mock-token-unrestricted"), q()).totalCount).toBe(3);
  });
});
