import { spawnSync } from "node:child_process";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../..");

/** The script as npm runs it: its own process, so a loading mistake (an un-awaited import) shows. */
function catalogue(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const { status, stdout, stderr } = spawnSync(process.execPath, [path.join(ROOT, "scripts/build-instance-catalogue.js"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return { status, stdout, stderr };
}

describe("npm run catalogue", () => {
  it("runs the script: a bad flag is reported with the usage, exit 2, no stack trace", () => {
    expect(catalogue(["--bogus"])).toEqual({
      status: 2,
      stdout: "",
      stderr: "--bogus: unknown argument\nusage: npm run catalogue [-- --reference <dir>] | [-- --live --region <region>]\n",
    });
  });
});
