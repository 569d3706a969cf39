import { PAGE_SIZE_MAXIMUM } from "../generated/limits.js";
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

/**
 * How many ids `paginate` remembers at most, to skip repeats and spot a server that loops: about
 * 10 MB, and more than the items of any page `maxResponseBytes` (4 MiB) lets through.
 */
const REMEMBERED_IDS = 100_000;

/**
 * Every item of a list, page after page (1, 2, …), each id once. It stops after the page that
 * brings the count of items to `totalCount`, after a page with fewer items than asked for (an empty
 * one included), and after a page that brings no id it has not seen, so a list that shrinks
 * meanwhile, or a server that ignores `page`, cannot make it loop forever. At most
 * `REMEMBERED_IDS` ids are remembered (then forgotten at once), whatever the list's length. `opts`
 * goes to every page call.
 *
 * Pages are numbered, so the list is not a snapshot: when items on pages already read are deleted
 * meanwhile (by the loop's own body, or anyone), later items move onto those pages and are never
 * yielded (deleting each item as it comes deletes 100 of 150). To act on every item, collect them
 * all first and then act, or list again until a pass finds nothing left to act on (with `createdAt`,
 * where items have one, to leave out those created since you started).
 */
export async function* paginate<Item>(
  fetchPage: FetchPage<Item>,
  idOf: (item: Item) => unknown,
  // The largest page the API serves, and so the fewest requests.
  pageSize: number = PAGE_SIZE_MAXIMUM,
  opts?: RequestOptions,
): AsyncGenerator<Item, void, undefined> {
  const seen = new Set<unknown>();
  let count = 0;
  for (let page = 1; ; page++) {
    const { data, totalCount } = await fetchPage(page, pageSize, opts);
    const before = count;
    for (const item of data) {
      const id = idOf(item);
      if (seen.has(id)) continue;
      // Forgetting every id now and then bounds the memory; a page repeated right after still stops.
      if (seen.add(id).size > REMEMBERED_IDS) seen.clear();
      count++;
      yield item;
    }
    if (count === before || data.length < pageSize || (totalCount !== undefined && count >= totalCount))
      return;
  }
}
