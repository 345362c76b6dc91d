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

/** Bytes that are not UTF-8: the first line (from 1) that is not, and what to tell the user. */
export interface NotUtf8 {
  readonly badLine: number;
  /** "line 3 is not valid UTF-8; ...", or, for UTF-16, which it is and how to write UTF-8 instead. */
  readonly problem: string;
}

/**
 * UTF-16, told by its byte order mark, or by the zero byte beside every ASCII character when there is none:
 * PowerShell 5.1's `>` and Out-File write UTF-16LE, which no UTF-8 reader takes.
 */
function utf16(bytes: Uint8Array): "little-endian" | "big-endian" | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "little-endian";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "big-endian";
  if (bytes.length >= 4 && bytes[0] !== 0 && bytes[1] === 0 && bytes[2] !== 0 && bytes[3] === 0) return "little-endian";
  if (bytes.length >= 4 && bytes[0] === 0 && bytes[1] !== 0 && bytes[2] === 0 && bytes[3] !== 0) return "big-endian";
  return undefined;
}

/** The text of UTF-8 bytes, or the first line (from 1) that is not UTF-8 and the problem in words. */
export function decodeUtf8(bytes: Uint8Array): { readonly text: string } | NotUtf8 {
  try {
    return { text: UTF8.decode(bytes) };
  } catch {
    const wide = utf16(bytes);
    if (wide !== undefined) {
      return {
        badLine: 1,
        problem: `is UTF-16 (${wide}), not UTF-8: PowerShell 5.1's > and Out-File write UTF-16; write UTF-8 instead (... | Out-File -Encoding utf8 <file>, or PowerShell 7, whose > writes UTF-8)`,
      };
    }
    const badLine = firstLineNotUtf8(bytes);
    return { badLine, problem: `line ${badLine} is not valid UTF-8; save the file as UTF-8 (bytes in another encoding are not guessed at)` };
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
