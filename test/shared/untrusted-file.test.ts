import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { decodeUtf8, readAtMost, readFailure } from "../../src/shared/untrusted-file";

describe("reading a file a user named", () => {
  it("reads at most one byte past the limit, whatever the size claims", () => {
    // A regular file whose size says 0 and whose content is longer.
    expect(fs.statSync("/proc/self/status").size).toBe(0);
    expect(readAtMost("/proc/self/status", 10).length).toBe(11);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "untrusted-")), "small");
    fs.writeFileSync(file, "abc");
    expect(readAtMost(file, 10).toString()).toBe("abc");
  });

  it("refuses what is no regular file before reading a byte: a FIFO would wait for a writer forever", () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "untrusted-"));
    const fifo = path.join(folder, "fifo");
    execFileSync("mkfifo", [fifo]);
    for (const target of [fifo, "/dev/zero", folder]) {
      let error: unknown;
      try {
        readAtMost(target, 10);
      } catch (e) {
        error = e;
      }
      expect([target, readFailure(error)]).toEqual([
        target,
        target === folder ? "is a folder" : "not a regular file: a FIFO, a device or a socket, which may never end; name a file",
      ]);
    }
    fs.rmSync(folder, { recursive: true });
  });

  it("words the file system's refusals, and leaves other errors to be bugs", () => {
    const failure = (code: string) => readFailure(Object.assign(new Error(code), { code }));
    expect(["EACCES", "EPERM", "ENOENT", "ENOTDIR", "EISDIR", "ELOOP", "EIO"].map(failure)).toEqual([
      "permission denied",
      "permission denied",
      "no such file or folder",
      "a folder on its path is a file",
      "is a folder",
      "too many symbolic links",
      "EIO",
    ]);
    expect(readFailure(new TypeError("a bug"))).toBeUndefined();
  });

  it("decodes UTF-8 (a byte order mark dropped) and names the first line that is not", () => {
    expect(decodeUtf8(Buffer.from("\uFEFFname: café\n"))).toEqual({ text: "name: café\n" });
    expect(decodeUtf8(Buffer.from("a: 1\nb: 2\nc: caf\xe9\n", "latin1"))).toEqual({
      badLine: 3,
      problem: "line 3 is not valid UTF-8; save the file as UTF-8 (bytes in another encoding are not guessed at)",
    });
  });
});
