import { describe, expect, it } from "vitest";
import { banner } from "../../mocks/server/banner.js";

const settings = { host: "127.0.0.1", cors: true, corsOrigins: [], allowedHosts: [], resumed: false };

describe("the CLI banner", () => {
  it("prints the base URLs, the control API and the console's URL", () => {
    const text = banner("http://127.0.0.1:4010", {}, settings);
    expect(text).toContain("  Dashboard base URL  http://127.0.0.1:4010/v1\n");
    expect(text).toContain("  Rebuild base URL    http://127.0.0.1:4010\n");
    expect(text).toMatch(
      /^ {2}Console {13}http:\/\/127\.0\.0\.1:4010\/__mock\/console {2}\(open it in a browser/m,
    );
  });

  it("warns that a non-loopback --host exposes the control API to the network", () => {
    for (const host of ["0.0.0.0", "::", "192.168.1.20", "mybox.lan"]) {
      const text = banner("http://x:4010", {}, { ...settings, host });
      expect(text, host).toContain(`WARNING: --host ${host} is not a loopback address`);
      expect(text, host).toContain("reachable from the network");
    }
    for (const host of ["127.0.0.1", "localhost", "::1", "127.0.0.2"]) {
      expect(banner("http://x:4010", {}, { ...settings, host }), host).not.toContain("WARNING");
    }
  });

  it("says which origins and hosts are let in, and where the state is kept", () => {
    const text = banner(
      "http://127.0.0.1:4010",
      {},
      {
        ...settings,
        corsOrigins: ["https://app.example.test", "*"],
        allowedHosts: ["mock.dev.example"],
        stateFile: ".mock-state.json",
        resumed: true,
      },
    );
    expect(text).toContain(
      "CORS                pages on localhost, 127.0.0.1 and [::1] (any port), https://app.example.test, any origin (*)",
    );
    expect(text).toContain("Allowed Host        loopback names and addresses, mock.dev.example");
    expect(text).toContain("State file          .mock-state.json (resumed from it;");
    expect(banner("http://127.0.0.1:4010", {}, { ...settings, cors: false })).toContain(
      "CORS                off (--no-cors)",
    );
  });
});
