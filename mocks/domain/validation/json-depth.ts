/**
 * JSON nested deeper than this is refused (400) before it is parsed. V8 parses far deeper, but
 * `structuredClone` and `JSON.stringify` recurse and would overflow the stack on what the mock
 * stores; no body of either API nests beyond a handful of levels.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * How deep `text` nests arrays and objects if it is JSON (brackets inside strings do not count),
 * in one pass without recursion; any text gets an answer, so it runs before `JSON.parse`.
 */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return deepest;
}
