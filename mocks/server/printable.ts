// Characters a terminal acts on rather than shows: C0 controls (but tab and newline), DEL, C1
// controls (U+009B starts an escape sequence like ESC [), and the bidirectional overrides and
// isolates that reorder what is shown around them.
const CONTROL = /[^\t\n\x20-\x7e\xa0-\uffff]|[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` from someone else (a receiver's answer) made safe to print to a terminal: line ends
 * become `\n`, and every control character is shown as an escape (`\x1b`, `\u202e`) instead of
 * being written, so an answer cannot move the cursor, clear the screen, recolour or rewrite what
 * was printed before it.
 */
export function printable(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(CONTROL, (char) => {
    const code = char.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16)}`;
  });
}
