import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../..");

function review(args: string[], env: Record<string, string> = {}): [number | null, string, string] {
  const { status, stdout, stderr } = spawnSync(process.execPath, [path.join(ROOT, "scripts/review.js"), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  return [status, stdout, stderr];
}

describe("npm run review's flags", () => {
  it("prints the help on stdout and exits 0, before synthesizing anything", () => {
    const [status, stdout, stderr] = review(["--help"]);
    expect([status, stdout.split("\n")[0], stderr]).toEqual([0, "usage: npm run review [-- --base <git ref>] [--workload <file|dir>]", ""]);
    expect(stdout).toContain("  --workload <file|dir>  also review/plan.md: what the NodePools would launch for it, and the cost (npm run plan)\n");
  });

  it("refuses anything else with the usage, exit 2", () => {
    expect(review(["--bogus"])).toEqual([2, "", 'npm run review: got "--bogus"; usage: npm run review [-- --base <git ref>] [--workload <file|dir>]\n']);
  });

  it("checks the workload before synthesizing: a wrong one leaves cdktf.out and review/ as they were", () => {
    const outdir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "aeks-review-")), "cdktf.out");
    const reviewBefore = fs.existsSync(path.join(ROOT, "review")) ? fs.statSync(path.join(ROOT, "review")).mtimeMs : undefined;
    const [status, stdout, stderr] = review(["--workload=/nonexistent/k8s"], { CDKTF_OUTDIR: outdir, CLUSTER_CONFIG: "" });
    expect([status, stdout, stderr]).toEqual([
      2,
      "",
      '  - --workload: got "/nonexistent/k8s"; no such file or folder: /nonexistent/k8s\nusage: npm run plan -- --workload <file|dir|-> [--workload ...] [--config cluster.yaml] [--region <region>] [--format table|markdown|json] [--live] [--prometheus <url>]\n',
    ]);
    expect(fs.existsSync(outdir)).toBe(false);
    expect(fs.existsSync(path.join(ROOT, "review")) ? fs.statSync(path.join(ROOT, "review")).mtimeMs : undefined).toBe(reviewBefore);
  });

  it("refuses a workload with a fleet folder, which has no one cluster to plan for", () => {
    const outdir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "aeks-review-")), "cdktf.out");
    const clusters = path.join(ROOT, "clusters");
    expect(review(["--workload", "templates/demo"], { CDKTF_OUTDIR: outdir, CLUSTER_CONFIG: clusters })).toEqual([
      2,
      "",
      `npm run review: --workload plans one cluster, and CLUSTER_CONFIG names a fleet folder (${clusters}): set CLUSTER_CONFIG to one cluster's file, or run npm run review without --workload and npm run plan -- --workload <w> --config <file>\n`,
    ]);
    expect(fs.existsSync(outdir)).toBe(false);
  });
});
