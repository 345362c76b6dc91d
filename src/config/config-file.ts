import * as fs from "node:fs";
import { LineCounter, parseDocument } from "yaml";
import { formatValue } from "../shared/format-issues";
import { InputError } from "../shared/input-error";

// Reading one cluster file into a plain mapping, refusing what is broken or hostile with one line each:
// nothing here trusts the file's size, its encoding or its aliases, and no error carries a stack trace.

/** The environment variable naming the cluster file; without it the embedded default cluster is used. */
export const CLUSTER_CONFIG_ENV = "CLUSTER_CONFIG";

/** A cluster file is a few kilobytes; a larger one is refused before it is parsed (or read past this). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * How many copies aliases may expand to (the yaml package's maxAliasCount, whose default this is): enough for
 * a taint or a label set reused across pools, far too few for an alias bomb ("billion laughs").
 */
const MAX_ALIAS_COUNT = 100;

const A_MAPPING = 'a cluster config is a YAML or JSON mapping with at least a name, such as "name: my-cluster"';

/** Node's error codes for a file that cannot be read, in words. */
const READ_FAILURES: Readonly<Record<string, string>> = {
  ENOENT: "no such file",
  EACCES: "permission denied",
  EPERM: "permission denied",
  ENOTDIR: "a folder on its path is a file",
};

/** UTF-8 only: a byte that is not UTF-8 is an error, never replaced by U+FFFD. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The mapping a cluster file holds, ready for the schema; throws InputError naming the file and the
 * problem: unreadable, over MAX_CONFIG_BYTES, not UTF-8, YAML errors with line and column, an alias bomb,
 * or no mapping at the top (empty, null, a list, a scalar).
 */
export function readConfigDocument(path: string): Readonly<Record<string, unknown>> {
  const refuse = (problem: string) => new InputError(path, [problem]);
  const bytes = readAtMost(path, MAX_CONFIG_BYTES, refuse);
  if (bytes.length > MAX_CONFIG_BYTES) {
    throw refuse(`the file is larger than 1 MiB (${MAX_CONFIG_BYTES} bytes), the most a cluster config may be; it was not parsed`);
  }
  const text = decodeUtf8(bytes, refuse);
  if (text.trim() === "") throw refuse(`the file is empty; ${A_MAPPING}`);
  const value = parseYaml(text, path);
  if (value === null || value === undefined) throw refuse(`the document is null (only comments, "null" or "~"); ${A_MAPPING}`);
  if (Array.isArray(value)) throw refuse(`the document is a list, not a mapping; ${A_MAPPING}`);
  if (!isMapping(value)) throw refuse(`the document is a single ${typeof value} (${formatValue(value)}), not a mapping; ${A_MAPPING}`);
  return value;
}

function isMapping(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Up to `limit + 1` bytes: enough to tell a file over the limit, whatever its size claims (a pipe, /dev/zero). */
function readAtMost(path: string, limit: number, refuse: (problem: string) => InputError): Buffer {
  try {
    const fd = fs.openSync(path, "r");
    try {
      const buffer = Buffer.alloc(limit + 1);
      let length = 0;
      while (length < buffer.length) {
        const read = fs.readSync(fd, buffer, length, buffer.length - length, null);
        if (read === 0) break;
        length += read;
      }
      return buffer.subarray(0, length);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    // Not `instanceof Error`: errors from Node's own modules may come from another realm (a test runner's).
    const code = typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined;
    if (code === undefined) throw error;
    throw refuse(`cannot read the cluster config (${READ_FAILURES[code] ?? code}); ${CLUSTER_CONFIG_ENV} must name a readable YAML or JSON file`);
  }
}

function decodeUtf8(bytes: Uint8Array, refuse: (problem: string) => InputError): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw refuse(`line ${firstLineNotUtf8(bytes)} is not valid UTF-8; save the file as UTF-8 (bytes in another encoding are not guessed at)`);
  }
}

/** The first line, from 1, that does not decode: a newline byte never occurs inside a UTF-8 sequence. */
function firstLineNotUtf8(bytes: Uint8Array): number {
  let line = 1;
  for (let start = 0; start <= bytes.length; line++) {
    const end = bytes.indexOf(0x0a, start);
    const stop = end === -1 ? bytes.length : end;
    try {
      UTF8.decode(bytes.subarray(start, stop));
    } catch {
      return line;
    }
    start = stop + 1;
  }
  return line;
}

/**
 * YAML (JSON is YAML too) to plain values. Syntax errors, duplicate keys included, are reported with their
 * line and column; the conversion's own errors (aliases) in one line each.
 */
function parseYaml(text: string, path: string): unknown {
  const lineCounter = new LineCounter();
  // merge: YAML 1.1's "<<: *base" merge keys, the usual way to reuse an anchored pool; off by default in 1.2.
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, merge: true });
  if (document.errors.length > 0) {
    throw new InputError(
      path,
      document.errors.map((e) => {
        const { line, col } = lineCounter.linePos(e.pos[0]);
        return `line ${line}, column ${col}: ${e.message.split("\n")[0]}`;
      }),
    );
  }
  try {
    return document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    // The yaml package's own wording for maxAliasCount; a test pins it.
    const problem = error.message.startsWith("Excessive alias count")
      ? `its aliases (*name) would expand to more than ${MAX_ALIAS_COUNT} copies of what they name: refused as a possible alias bomb; write the repeated values out`
      : `the YAML cannot be read: ${error.message.split("\n")[0]}`;
    throw new InputError(path, [problem]);
  }
}
