// Names are joined with this between them. A match of a needle without it cannot span two names.
const SEPARATOR = "\u0000";

/**
 * Substring search over many lower-cased names in one native `indexOf` scan of a joined string,
 * several times faster than one `includes` per name: the 100,000-token filtered list stays well
 * inside its latency budget. Items are appended in list order; removing one means rebuilding.
 */
export class NameSearch<T extends { readonly nameLower: string }> {
  #text = "";
  readonly #starts: number[] = [];
  readonly #items: T[] = [];

  append(item: T): void {
    this.#text += SEPARATOR;
    this.#starts.push(this.#text.length);
    this.#text += item.nameLower;
    this.#items.push(item);
  }

  /** Items whose name contains `needle` (lower-cased), in append order. */
  matching(needle: string): T[] {
    // The scan below steps past each hit's name, which an empty needle would never leave.
    if (needle === "") return [...this.#items];
    if (needle.includes(SEPARATOR)) return this.#items.filter((item) => item.nameLower.includes(needle));
    const found: T[] = [];
    let from = 0;
    for (let at = this.#text.indexOf(needle, from); at !== -1; at = this.#text.indexOf(needle, from)) {
      const index = this.#indexAt(at);
      const item = this.#items[index];
      if (item) found.push(item);
      from = this.#starts[index + 1] ?? this.#text.length;
    }
    return found;
  }

  /** The item whose name holds text position `at`: the last start at or before it. */
  #indexAt(at: number): number {
    let low = 0;
    let high = this.#starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if ((this.#starts[mid] ?? 0) <= at) low = mid;
      else high = mid - 1;
    }
    return low;
  }
}
