import * as fs from "node:fs";

// Reading a file a user named without trusting it: not its size (stat says 0 for /dev/zero, a pipe or a
// FIFO, which then never end), not its encoding, and not that it can be read at all. The callers word the
// limit and the problem for their own input (a workload file, a cluster file).

/** Node's error codes for a path that cannot be read, in words. */
const READ_FAILURES: Readonly<Record<string, string>> = {
  ENOENT: "no such file or folder",
  EACCES: "permission denied",
  EPERM: "permission denied",
  ENOTDIR: "a folder on its path is a file",
  EISDIR: "is a folder",
  ELOOP: "too many symbolic links",
  ENAMETOOLONG: "the name is too long",
  EMFILE: "too many open files",
};

/**
 * Why a file system call failed, in words ("permission denied"), or undefined when `error` is not a file
 * system error (a bug, which keeps its stack trace).
 */
/**
 * The most aliases (*name) one YAML document may use. Hand-written configuration and manifests rarely need
 * anchors at all; 100 is the yaml package's default, and it keeps a "billion laughs" document from expanding.
 */
export const MAX_YAML_ALIASES = 100;

export function readFailure(error: unknown): string | undefined {
  // Not `instanceof Error`: errors from Node's own modules may come from another realm (a test runner's).
  const code = typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined;
  return code === undefined ? undefined : (READ_FAILURES[code] ?? code);
}

/** Up to `limit + 1` bytes: enough to tell a file over the limit, whatever its size claims. Throws Node's errors. */
export function readAtMost(path: string, limit: number): Buffer {
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
}

/** UTF-8 only: a byte that is not UTF-8 is an error, never replaced by U+FFFD. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The text of UTF-8 bytes, or the first line (from 1) that is not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): { readonly text: string } | { readonly badLine: number } {
  try {
    return { text: UTF8.decode(bytes) };
  } catch {
    return { badLine: firstLineNotUtf8(bytes) };
  }
}

/** A newline byte never occurs inside a UTF-8 sequence, so lines can be decoded one by one. */
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
