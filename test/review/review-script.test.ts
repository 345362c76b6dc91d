import { spawnSync } from "node:child_process";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../..");

function review(args: string[]): [number | null, string, string] {
  const { status, stdout, stderr } = spawnSync(process.execPath, [path.join(ROOT, "scripts/review.js"), ...args], { cwd: ROOT, encoding: "utf8" });
  return [status, stdout, stderr];
}

describe("npm run review's flags", () => {
  it("prints the help on stdout and exits 0, before synthesizing anything", () => {
    const [status, stdout, stderr] = review(["--help"]);
    expect([status, stdout.split("\n")[0], stderr]).toEqual([0, "usage: npm run review [-- --workload <file|dir>]", ""]);
    expect(stdout).toContain("  --workload <file|dir>  also review/plan.md: what the NodePools would launch for it, and the cost (npm run plan)\n");
  });

  it("refuses anything else with the usage, exit 2", () => {
    expect(review(["--bogus"])).toEqual([2, "", 'npm run review: got "--bogus"; usage: npm run review [-- --workload <file|dir>]\n']);
  });
});
