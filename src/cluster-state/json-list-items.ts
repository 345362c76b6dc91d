// A List's items read one at a time from the file's bytes: `kubectl get ... -A -o json` writes one JSON object
// whose `items` hold every object of the cluster, and a cluster of 150,000 pods makes a file of hundreds of
// megabytes. Parsed whole, that is several times the file in objects before any is cut to what the report reads;
// item by item, each is parsed from its own slice of the bytes (decoded as UTF-8 then: a slice starts and ends on
// an ASCII bracket, never inside a character), handed over and let go. Anything that is not one JSON object with an
// `items` array (YAML, several documents, a snapshot) is left to the whole-text readers.

import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, closingIndex, OPEN_BRACE, OPEN_BRACKET, QUOTE } from "./json-closing";

const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const COMMA = 0x2c;
const COLON = 0x3a;

/** UTF-8 only: a byte that is not UTF-8 is an error (the caller then reads the whole file to say which line). */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** A JSON value's slice could not be read: what the caller falls back from. */
class NotAList extends Error {}

class Cursor {
  position = 0;
  constructor(private readonly bytes: Uint8Array) {}

  /** The byte at the cursor (a method, not a getter: each call reads it afresh). */
  peek(): number {
    return this.bytes[this.position];
  }

  skipSpace(): void {
    while (this.position < this.bytes.length && SPACE.has(this.bytes[this.position])) this.position++;
  }

  expect(byte: number): void {
    this.skipSpace();
    if (this.bytes[this.position] !== byte) throw new NotAList();
    this.position++;
  }

  /** The end (exclusive) of the value starting here: a string, an object or array (brackets balanced), or a scalar. */
  endOfValue(): number {
    const bytes = this.bytes;
    let i = this.position;
    const first = bytes[i];
    if (first === QUOTE) {
      for (i++; i < bytes.length; i++) {
        if (bytes[i] === BACKSLASH) i++;
        else if (bytes[i] === QUOTE) return i + 1;
      }
      throw new NotAList();
    }
    if (first === OPEN_BRACE || first === OPEN_BRACKET) {
      const end = closingIndex((at) => bytes[at], bytes.length, i);
      if (end < 0) throw new NotAList();
      return end;
    }
    while (i < bytes.length && !SPACE.has(bytes[i]) && bytes[i] !== COMMA && bytes[i] !== CLOSE_BRACE && bytes[i] !== CLOSE_BRACKET) i++;
    if (i === this.position) throw new NotAList();
    return i;
  }

  /** The value starting here, parsed; the cursor moves past it. */
  value(): unknown {
    this.skipSpace();
    const end = this.endOfValue();
    const text = UTF8.decode(this.bytes.subarray(this.position, end));
    this.position = end;
    return JSON.parse(text);
  }

  atEnd(): boolean {
    this.skipSpace();
    return this.position >= this.bytes.length;
  }
}

/**
 * Calls `onItem` with each element of the top-level `items` array of the one JSON object `bytes` hold, in order,
 * and the object's fields read before `items` (an API server writes `kind` first; kubectl sorts it after), and
 * returns all its other fields; undefined when the bytes are not one JSON object with an `items` array, or not
 * valid UTF-8 JSON, for the caller to read them whole (and word the problem). `onItem` may have been called for
 * some items before it finds out.
 */
export function eachListItem(
  bytes: Uint8Array,
  onItem: (item: unknown, index: number, before: Readonly<Record<string, unknown>>) => void,
): Record<string, unknown> | undefined {
  const cursor = new Cursor(bytes);
  const rest: Record<string, unknown> = {};
  let sawItems = false;
  try {
    cursor.expect(OPEN_BRACE);
    cursor.skipSpace();
    if (cursor.peek() === CLOSE_BRACE) return undefined;
    for (;;) {
      cursor.skipSpace();
      const key = cursor.value();
      if (typeof key !== "string") return undefined;
      cursor.expect(COLON);
      cursor.skipSpace();
      if (key === "items" && cursor.peek() === OPEN_BRACKET && !sawItems) {
        sawItems = true;
        cursor.expect(OPEN_BRACKET);
        cursor.skipSpace();
        let index = 0;
        if (cursor.peek() === CLOSE_BRACKET) cursor.expect(CLOSE_BRACKET);
        else {
          for (;;) {
            onItem(cursor.value(), index++, rest);
            cursor.skipSpace();
            if (cursor.peek() === COMMA) cursor.expect(COMMA);
            else {
              cursor.expect(CLOSE_BRACKET);
              break;
            }
          }
        }
      } else rest[key] = cursor.value();
      cursor.skipSpace();
      if (cursor.peek() === COMMA) cursor.expect(COMMA);
      else {
        cursor.expect(CLOSE_BRACE);
        break;
      }
    }
    return sawItems && cursor.atEnd() ? rest : undefined;
  } catch (error) {
    // Errors of Node's own modules may come from another realm (a test runner's): told by name and code, not instanceof.
    const { name, code } = error as { name?: string; code?: string };
    if (error instanceof NotAList || name === "SyntaxError" || code === "ERR_ENCODING_INVALID_ENCODED_DATA") return undefined;
    throw error;
  }
}
