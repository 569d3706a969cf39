import { describe, expect, it } from "vitest";
import {
  createEdgePolicy,
  isLoopbackHost,
  normaliseCorsOrigin,
  normaliseHost,
} from "../../mocks/http/edge-policy.js";

describe("edge policy: Host", () => {
  const policy = createEdgePolicy("127.0.0.1", { allowedHosts: ["mock.dev.example", "::1"] });

  it.each([
    "127.0.0.1",
    "127.0.0.1:4010",
    "localhost",
    "LOCALHOST:80",
    "localhost.",
    "app.localhost:5173",
    "127.8.9.10",
    "[::1]:4010",
    "[0:0:0:0:0:0:0:1]",
    "mock.dev.example",
    "Mock.Dev.Example:443",
  ])("answers Host %s", (host) => {
    expect(policy.hostAllowed(host)).toBe(true);
  });

  it.each([
    "evil.example",
    "evil.example:4010",
    "localhost.evil.example",
    "10.0.0.1",
    "0.0.0.0",
    "evil.example@127.0.0.1",
    "127.0.0.1/x",
    "",
    "a b",
    "[::2]",
  ])("refuses Host %j", (host) => {
    expect(policy.hostAllowed(host)).toBe(false);
  });

  it("answers the bound address, whatever it is", () => {
    expect(createEdgePolicy("0.0.0.0").hostAllowed("0.0.0.0:4010")).toBe(true);
    expect(createEdgePolicy("::").hostAllowed("[::]:4010")).toBe(true);
    expect(createEdgePolicy("192.168.1.20").hostAllowed("192.168.1.20")).toBe(true);
    expect(createEdgePolicy("192.168.1.20").hostAllowed("192.168.1.21")).toBe(false);
  });
});

describe("edge policy: Origin", () => {
  it.each([
    ["http://localhost:5173", true],
    ["https://localhost", true],
    ["http://127.0.0.1:3000", true],
    ["http://[::1]:8080", true],
    ["http://app.localhost:5173", true],
    ["http://evil.example", false],
    ["http://localhost.evil.example", false],
    ["null", false],
    ["file://", false],
    ["http://localhost:5173/", false],
    ["ftp://localhost", false],
  ])("by default, %s: %s", (origin, allowed) => {
    expect(createEdgePolicy("127.0.0.1").originAllowed(origin)).toBe(allowed);
  });

  it("adds listed origins; * allows every origin", () => {
    const listed = createEdgePolicy("127.0.0.1", { corsOrigins: ["https://app.example.test:8443/"] });
    expect(listed.originAllowed("https://app.example.test:8443")).toBe(true);
    expect(listed.originAllowed("https://app.example.test")).toBe(false);
    const any = createEdgePolicy("127.0.0.1", { corsOrigins: ["*"] });
    expect(any.originAllowed("https://anything.example")).toBe(true);
    expect(any.originAllowed("null")).toBe(true);
  });

  it("with CORS off allows no origin, loopback included", () => {
    const off = createEdgePolicy("127.0.0.1", { cors: false });
    expect(off.originAllowed("http://localhost:5173")).toBe(false);
    expect(off.cors).toBe(false);
  });
});

describe("edge policy: option values", () => {
  it("normalises origins and refuses what is not one", () => {
    expect(normaliseCorsOrigin("HTTP://Example.test:80/")).toBe("http://example.test");
    expect(normaliseCorsOrigin("*")).toBe("*");
    for (const bad of [
      "example.test",
      "http://a.test/path",
      "http://a.test?q",
      "ws://a.test",
      "http://u@a.test",
    ]) {
      expect(() => normaliseCorsOrigin(bad), bad).toThrow(TypeError);
    }
  });

  it("normalises host names and addresses", () => {
    expect(normaliseHost("Box.LAN")).toBe("box.lan");
    expect(normaliseHost("::1")).toBe("[::1]");
    expect(() => normaliseHost("a b")).toThrow(TypeError);
    expect(isLoopbackHost("127.255.0.1")).toBe(true);
    expect(isLoopbackHost("128.0.0.1")).toBe(false);
  });
});
