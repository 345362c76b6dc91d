import * as fs from "node:fs";

// Reading a file a user named without trusting it: not its size (stat says 0 for /dev/zero, a pipe or a
// FIFO, which then never end; only regular files are read), not its encoding, and not that it can be read at all. The callers word the
// limit and the problem for their own input (a workload file, a cluster file).

/** The code of the error readAtMost throws for a path that is no regular file. */
const NOT_REGULAR = "ENOTREGULAR";

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
  [NOT_REGULAR]: "not a regular file: a FIFO, a device or a socket, which may never end; name a file",
};

/**
 * The most aliases (*name) one YAML document may use. Hand-written configuration and manifests rarely need
 * anchors at all; 100 is the yaml package's default, and it keeps a "billion laughs" document from expanding.
 */
export const MAX_YAML_ALIASES = 100;

/**
 * Why a file system call failed, in words ("permission denied"), or undefined when `error` is not a file
 * system error (a bug, which keeps its stack trace).
 */
export function readFailure(error: unknown): string | undefined {
  // Not `instanceof Error`: errors from Node's own modules may come from another realm (a test runner's).
  const code = typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined;
  return code === undefined ? undefined : (READ_FAILURES[code] ?? code);
}

/**
 * Up to `limit + 1` bytes of a regular file: enough to tell a file over the limit, whatever its size claims.
 * Anything else (a FIFO, which would wait for a writer forever, a device, a socket) is refused before a byte is
 * read: it is opened without blocking and looked at first, so no writer is waited for. Throws Node's errors.
 */
export function readAtMost(path: string, limit: number): Buffer {
  const fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    const stat = fs.fstatSync(fd);
    if (stat.isDirectory()) throw Object.assign(new Error(`${path} is a folder`), { code: "EISDIR" });
    if (!stat.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: NOT_REGULAR });
    return readAll(fd, limit);
  } finally {
    fs.closeSync(fd);
  }
}

/** Up to `limit + 1` bytes of standard input, whatever it is (a pipe, a file, a terminal). Throws Node's errors. */
export function readStdinAtMost(limit: number): Buffer {
  // Opened afresh, blocking: fd 0 itself may be in non-blocking mode, where a read fails with EAGAIN.
  const fd = fs.openSync("/dev/stdin", "r");
  try {
    return readAll(fd, limit);
  } finally {
    fs.closeSync(fd);
  }
}

function readAll(fd: number, limit: number): Buffer {
  const buffer = Buffer.alloc(limit + 1);
  let length = 0;
  while (length < buffer.length) {
    const read = fs.readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) break;
    length += read;
  }
  return buffer.subarray(0, length);
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
