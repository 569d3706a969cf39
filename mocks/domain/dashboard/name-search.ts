// Names are joined with this between them. A match of a needle without it cannot span two names.
const SEPARATOR = "\u0000";

/**
 * Substring search over many lower-cased names in one native `indexOf` scan of a joined string,
 * several times faster than one `includes` per name: the 100,000-token filtered list stays well
 * inside its latency budget. Items are appended in list order; removing one means rebuilding.
 */
export interface NameSearch<T extends { readonly nameLower: string }> {
  append(item: T): void;
  /** Items whose name contains `needle` (lower-cased), in append order. */
  matching(needle: string): T[];
}

export function createNameSearch<T extends { readonly nameLower: string }>(): NameSearch<T> {
  let text = "";
  const starts: number[] = [];
  const items: T[] = [];

  /** The item whose name holds text position `at`: the last start at or before it. */
  const indexAt = (at: number): number => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if ((starts[mid] ?? 0) <= at) low = mid;
      else high = mid - 1;
    }
    return low;
  };

  return {
    append(item) {
      text += SEPARATOR;
      starts.push(text.length);
      text += item.nameLower;
      items.push(item);
    },
    matching(needle) {
      // The scan below steps past each hit's name, which an empty needle would never leave.
      if (needle === "") return [...items];
      if (needle.includes(SEPARATOR)) return items.filter((item) => item.nameLower.includes(needle));
      const found: T[] = [];
      let from = 0;
      for (let at = text.indexOf(needle, from); at !== -1; at = text.indexOf(needle, from)) {
        const index = indexAt(at);
        const item = items[index];
        if (item) found.push(item);
        from = starts[index + 1] ?? text.length;
      }
      return found;
    },
  };
}
