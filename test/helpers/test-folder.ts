import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** A new empty folder for one test, inside the run's temporary folder (test/global-setup.js removes it after the run). */
export function testFolder(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
}
