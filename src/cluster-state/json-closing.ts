// Where a JSON object or array closes, found by counting brackets outside strings: what both the item-by-item List
// reader (over a file's bytes) and the reader of concatenated documents (over text) use to cut a value from the rest.
// Only ASCII matters here (brackets, quotes, backslashes), so bytes and UTF-16 code units read alike.

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;

/**
 * The index after the bracket that closes the object or array opening at `start`, or -1 when the input ends first.
 * `code(i)` is the character code (or byte) at i, for i below `length`.
 */
export function closingIndex(code: (i: number) => number, length: number, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < length; i++) {
    const c = code(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}
