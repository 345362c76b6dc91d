import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { testFolder } from "../helpers/test-folder";

const ROOT = path.join(__dirname, "..", "..");

/** A workload whose JSON plan is far larger than a pipe's buffer (64 KiB), so a reader that stops early closes it mid-write. */
function largeWorkload(): string {
  const file = path.join(testFolder("quiet-pipe"), "workload.yaml");
  const deployment = (i: number) =>
    `---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d${i}}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: d${i}}}\n  template:\n    metadata: {labels: {app: d${i}}}\n    spec:\n      containers: [{name: c, image: x, resources: {requests: {cpu: "${100 + (i % 900)}m", memory: "${128 + (i % 512)}Mi"}}}]\n`;
  fs.writeFileSync(file, Array.from({ length: 1500 }, (_, i) => deployment(i)).join(""));
  return file;
}

describe("a reader that stops early", () => {
  it("makes npm run plan exit quietly and successfully, with no EPIPE stack trace", () => {
    const workload = largeWorkload();
    // `set -o pipefail` so the plan's own status, not head's, is the pipeline's.
    const result = spawnSync("bash", ["-c", `set -o pipefail; node scripts/plan.js --workload '${workload}' --format json | head -c 100 > /dev/null`], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: "" });
    // And the whole plan is indeed larger than the pipe holds.
    const whole = spawnSync("node", ["scripts/plan.js", "--workload", workload, "--format", "json"], { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 28 });
    expect(whole.stdout.length).toBeGreaterThan(1 << 16);
  });
});
