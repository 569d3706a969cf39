// listAll against servers that paginate wrongly: it stops at totalCount, on an empty or short
// page, and on a page that brings no id it has not seen; it never loops forever, and it yields
// each id once.
import { describe, expect, it } from "vitest";
import { ResponseValidationError } from "../../../src/index.js";
import { misbehaving, rejection, reply } from "./server.js";

const server = (n: number) => ({
  guid: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
  product: "plesk",
  address: `https://srv${n}.example.com`,
  active: true,
});

async function collect<T>(items: AsyncIterable<T>, limit = 100_000): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) {
    out.push(item);
    // A safety net for the test itself: a loop that never ends fails here instead of hanging.
    if (out.length > limit) throw new Error("listAll did not stop");
  }
  return out;
}

describe("a server that ignores page", () => {
  it("the same 100 servers every time, totalCount far away: stops after the page with nothing new", async () => {
    const page = { totalCount: 20_000, data: Array.from({ length: 100 }, (_, i) => server(i)) };
    const m = await misbehaving(reply(200, page));
    const servers = await collect(m.dashboard().servers.listAll());
    expect(servers).toHaveLength(100);
    expect(m.requests.map((r) => new URL(r.url, m.origin).search)).toEqual([
      "?page=1&pageSize=100",
      "?page=2&pageSize=100",
    ]);
  });

  it("and pageSize: 20,000 items made of 100 ids, each id yielded once", async () => {
    const page = { totalCount: 20_000, data: Array.from({ length: 20_000 }, (_, i) => server(i % 100)) };
    const m = await misbehaving(reply(200, page));
    const servers = await collect(m.dashboard().servers.listAll());
    expect(servers.map((s) => s.guid)).toEqual(Array.from({ length: 100 }, (_, i) => server(i).guid));
    expect(m.requests).toHaveLength(2);
  });

  it("and omits totalCount, which the contract requires: a ResponseValidationError at once", async () => {
    const m = await misbehaving(reply(200, { data: Array.from({ length: 100 }, (_, i) => server(i)) }));
    const error = await rejection(collect(m.dashboard().servers.listAll()));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).jsonPath).toBe("$.totalCount");
    expect(m.requests).toHaveLength(1);
  });

  it("two pages taking turns: stops when they come round again", async () => {
    const pages = [0, 1].map((p) => ({
      totalCount: 1_000_000,
      data: Array.from({ length: 100 }, (_, i) => server(p * 100 + i)),
    }));
    const m = await misbehaving((req, res, n) => reply(200, pages[(n - 1) % 2])(req, res, n));
    expect(await collect(m.dashboard().servers.listAll())).toHaveLength(200);
    expect(m.requests).toHaveLength(3);
  });
});

describe("other endings", () => {
  it("a list that shifts between pages: each id once", async () => {
    const tokens = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => ({
        id: from + i + 1,
        name: `t${from + i}`,
        type: "user",
        claims: [],
        createdAt: "2026-11-22T02:39:49+00:00",
        lastUsedAt: null,
        expireAt: null,
      }));
    // Page 2 repeats the last two of page 1 (two tokens were created meanwhile at the front).
    const m = await misbehaving((req, res, n) =>
      reply(200, { totalCount: 6, data: n === 1 ? tokens(0, 4) : tokens(2, 6) })(req, res, n),
    );
    const ids = (await collect(m.dashboard().apiTokens.listAll({ pageSize: 4 }))).map((t) => t.id);
    expect(ids).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("an empty page ends it, whatever totalCount claims", async () => {
    const m = await misbehaving((req, res, n) =>
      reply(200, { totalCount: 500, data: n === 1 ? [server(1), server(2)] : [] })(req, res, n),
    );
    expect(await collect(m.dashboard().servers.listAll({ pageSize: 2 }))).toHaveLength(2);
    expect(m.requests).toHaveLength(2);
  });
});
