import type { RequestOptions } from "./options.js";

/** One page of a list endpoint. */
export interface Page<Item> {
  readonly totalCount?: number;
  readonly data: readonly Item[];
}

/** Fetches one page; a client passes its own `list` method here, so each page gets the pipeline. */
export type FetchPage<Item> = (
  page: number,
  pageSize: number,
  opts: RequestOptions | undefined,
) => PromiseLike<Page<Item>>;

/** Largest page the API serves, and so the fewest requests. */
const DEFAULT_PAGE_SIZE = 100;

/**
 * Every item of a list, page after page (1, 2, …). Stops after the page that brings the count of
 * items seen to `totalCount`, or that holds fewer items than asked for, whichever comes first, so
 * a list that shrinks meanwhile cannot loop forever. `opts` goes to every page call.
 */
export async function* paginate<Item>(
  fetchPage: FetchPage<Item>,
  pageSize: number = DEFAULT_PAGE_SIZE,
  opts?: RequestOptions,
): AsyncGenerator<Item, void, undefined> {
  let seen = 0;
  for (let page = 1; ; page++) {
    const { data, totalCount } = await fetchPage(page, pageSize, opts);
    yield* data;
    seen += data.length;
    if (data.length < pageSize || (totalCount !== undefined && seen >= totalCount)) return;
  }
}
