import { describe, expect, it, vi } from "vitest";
import { InternalServerError } from "../../../src/core/errors.js";
import type { RequestOptions } from "../../../src/core/options.js";
import { type FetchPage, type Page, paginate } from "../../../src/core/pagination.js";
import { errorBody, type Item, json, setup } from "./helpers.js";

/** A server-side list of `total` items, optionally lying about its totalCount (null: none given). */
function pages(total: number, reportedTotal: number | null = total) {
  return vi.fn<FetchPage<number>>(async (page, pageSize): Promise<Page<number>> => {
    const start = (page - 1) * pageSize;
    const data = Array.from({ length: Math.max(0, Math.min(pageSize, total - start)) }, (_, i) => start + i);
    return reportedTotal === null ? { data } : { totalCount: reportedTotal, data };
  });
}

const same = (n: number) => n;

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe("paginate", () => {
  it("asks for pages of 100 by default", async () => {
    const fetchPage = pages(250);
    const items = await collect(paginate(fetchPage, same));
    expect(items).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(fetchPage.mock.calls.map(([page, size]) => [page, size])).toEqual([
      [1, 100],
      [2, 100],
      [3, 100],
    ]);
  });

  it("stops after the page that reaches totalCount, without asking for an empty one", async () => {
    const fetchPage = pages(200);
    expect(await collect(paginate(fetchPage, same))).toHaveLength(200);
    expect(fetchPage).toHaveBeenCalledTimes(2);
  });

  it("stops after a page with fewer items than asked for, whatever totalCount says", async () => {
    const fetchPage = pages(15, 1000);
    expect(await collect(paginate(fetchPage, same, 10))).toHaveLength(15);
    expect(fetchPage).toHaveBeenCalledTimes(2);
  });

  it("works without a totalCount", async () => {
    const fetchPage = pages(20, null);
    expect(await collect(paginate(fetchPage, same, 10))).toHaveLength(20);
    // Two full pages, then an empty one proves the end.
    expect(fetchPage).toHaveBeenCalledTimes(3);
  });

  it("an empty list is one request", async () => {
    const fetchPage = pages(0);
    expect(await collect(paginate(fetchPage, same))).toEqual([]);
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });

  it("a totalCount that shrinks below what was seen stops", async () => {
    const fetchPage = pages(30, 5);
    expect(await collect(paginate(fetchPage, same, 10))).toHaveLength(10);
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });

  it("passes opts to every page and fetches lazily", async () => {
    const fetchPage = pages(25);
    const opts: RequestOptions = { signal: new AbortController().signal, timeoutMs: 5 };
    const iterator = paginate(fetchPage, same, 10, opts)[Symbol.asyncIterator]();
    expect(fetchPage).not.toHaveBeenCalled();
    await iterator.next();
    expect(fetchPage).toHaveBeenCalledTimes(1);
    await iterator.return?.();
    expect(await collect(paginate(fetchPage, same, 10, opts))).toHaveLength(25);
    for (const call of fetchPage.mock.calls) expect(call[2]).toBe(opts);
  });
});

describe("paginate through the pipeline", () => {
  const listPage = (page: number, size: number, items: number) =>
    json(200, {
      totalCount: items,
      data: Array.from({ length: Math.max(0, Math.min(size, items - (page - 1) * size)) }, (_, i) => ({
        id: (page - 1) * size + i,
        name: `n${i}`,
      })),
    });

  function listAll(t: ReturnType<typeof setup>["t"], pageSize?: number, opts?: RequestOptions) {
    return paginate<Item>(
      (page, size, o) =>
        t("safe", o, (http, init) =>
          http.GET("/items", { ...init, params: { query: { page, pageSize: size } } }),
        ),
      (item) => item.id,
      pageSize,
      opts,
    );
  }

  it("each page is retried like any call", async () => {
    const { t, requests, waits } = setup([
      () => listPage(1, 2, 3),
      () => json(503, errorBody("UNAVAILABLE")),
      () => listPage(2, 2, 3),
    ]);
    expect((await collect(listAll(t, 2))).map((item) => item.id)).toEqual([0, 1, 2]);
    expect(requests.map((r) => new URL(r.url).search)).toEqual([
      "?page=1&pageSize=2",
      "?page=2&pageSize=2",
      "?page=2&pageSize=2",
    ]);
    expect(waits).toHaveLength(1);
  });

  it("a page that keeps failing ends the iteration with its error", async () => {
    const { t } = setup([
      () => listPage(1, 2, 5),
      ...Array.from({ length: 3 }, () => () => json(500, errorBody("INTERNAL"))),
    ]);
    const seen: number[] = [];
    const run = async () => {
      for await (const item of listAll(t, 2)) seen.push(item.id);
    };
    await expect(run()).rejects.toBeInstanceOf(InternalServerError);
    expect(seen).toEqual([0, 1]);
  });

  it("aborting stops before the next page", async () => {
    const { t, fetch } = setup([() => listPage(1, 2, 6), () => listPage(2, 2, 6)]);
    const controller = new AbortController();
    const seen: number[] = [];
    const run = async () => {
      for await (const item of listAll(t, 2, { signal: controller.signal })) {
        seen.push(item.id);
        if (item.id === 1) controller.abort();
      }
    };
    await expect(run()).rejects.toMatchObject({ name: "AbortError" });
    expect(seen).toEqual([0, 1]);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
