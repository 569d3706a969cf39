/**
 * The JSON text of `value` in pieces of about `size` characters, built without recursion and
 * without ever holding the whole text: for answers (and state files) too large for one string,
 * where `JSON.stringify` throws "Invalid string length". Same text as `JSON.stringify` for JSON
 * data: objects, arrays, strings, numbers (non-finite ones as null), booleans and null; undefined
 * and function members are left out of objects and written null in arrays.
 */
export function* jsonChunks(value: unknown, size = 64 * 1024): Generator<string, void, undefined> {
  type Frame =
    | { kind: "array"; items: readonly unknown[]; next: number }
    | { kind: "object"; entries: Array<[string, unknown]>; next: number; written: number };
  const stack: Frame[] = [];
  let out = "";

  /** Writes a scalar, or opens a container (its members follow); false for what JSON leaves out. */
  const open = (item: unknown): boolean => {
    const data =
      typeof item === "object" && item !== null && typeof (item as { toJSON?: unknown }).toJSON === "function"
        ? (item as { toJSON(): unknown }).toJSON()
        : item;
    if (Array.isArray(data)) {
      out += "[";
      stack.push({ kind: "array", items: data, next: 0 });
    } else if (typeof data === "object" && data !== null) {
      out += "{";
      stack.push({ kind: "object", entries: Object.entries(data), next: 0, written: 0 });
    } else if (data === undefined || typeof data === "function" || typeof data === "symbol") {
      return false;
    } else {
      out += JSON.stringify(data);
    }
    return true;
  };

  if (!open(value)) return;
  while (stack.length > 0) {
    if (out.length >= size) {
      yield out;
      out = "";
    }
    const frame = stack[stack.length - 1] as Frame;
    if (frame.kind === "array") {
      if (frame.next === frame.items.length) {
        out += "]";
        stack.pop();
        continue;
      }
      if (frame.next > 0) out += ",";
      if (!open(frame.items[frame.next++])) out += "null";
      continue;
    }
    if (frame.next === frame.entries.length) {
      out += "}";
      stack.pop();
      continue;
    }
    const [key, item] = frame.entries[frame.next++] as [string, unknown];
    if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
    out += `${frame.written++ > 0 ? "," : ""}${JSON.stringify(key)}:`;
    open(item);
  }
  if (out !== "") yield out;
}
