import type { ListPage } from "./types.js";

/** Which page of a list, as the contract's `page` and `pageSize` (their defaults filled in). */
interface PageWindow {
  page: number;
  pageSize: number;
}

/**
 * One page of `items`, viewing only the items on it. Iteration stops at the page's end, so an
 * unfiltered list of a large map never walks past the page it shows.
 */
export function paginate<T, R>(
  items: Iterable<T>,
  totalCount: number,
  window: PageWindow,
  view: (item: T) => R,
): ListPage<R> {
  const start = (window.page - 1) * window.pageSize;
  const end = start + window.pageSize;
  const data: R[] = [];
  if (start < totalCount) {
    let index = 0;
    for (const item of items) {
      if (index >= end) break;
      if (index >= start) data.push(view(item));
      index++;
    }
  }
  return { totalCount, data };
}
