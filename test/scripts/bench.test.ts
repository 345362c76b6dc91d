import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

// The bench's flags and its clean-up; the bench itself takes minutes and is never run here to its end.

const ROOT = path.resolve(__dirname, "../..");
const BENCH = path.join(ROOT, "scripts/bench.js");
const PLANNER_BENCH = path.join(ROOT, "scripts/bench/planner.js");
const USAGE = "usage: npm run bench [-- --runs <n>]";

function bench(script: string, ...args: string[]): [number | null, string, string] {
  const { status, stdout, stderr } = spawnSync(process.execPath, [script, ...args], { cwd: ROOT, encoding: "utf8" });
  return [status, stdout, stderr];
}

describe("npm run bench's flags", () => {
  it("refuses a --runs that is not a positive integer, with the usage, exit 2, before measuring anything", () => {
    for (const value of ["0", "-1", "abc", "2.5"]) {
      expect(bench(BENCH, "--runs", value)).toEqual([2, "", `  - --runs: got "${value}"; must be a positive integer such as 5\n${USAGE}\n`]);
    }
    expect(bench(BENCH, "--runs")).toEqual([2, "", `  - --runs: missing value\n${USAGE}\n`]);
    expect(bench(PLANNER_BENCH, "--runs", "0")).toEqual([
      2,
      "",
      '  - --runs: got "0"; must be a positive integer such as 5\nusage: node scripts/bench/planner.js [--runs <n>]\n',
    ]);
  });

  it("refuses unknown flags (and takes --runs=N), every problem at once", () => {
    expect(bench(BENCH, "--runs=3", "--bogus", "--runs", "4")).toEqual([2, "", `  - --bogus: unknown argument\n  - --runs: given twice\n${USAGE}\n`]);
  });

  it("prints the help on stdout and exits 0 instead of starting", () => {
    const [status, stdout, stderr] = bench(BENCH, "--help");
    expect([status, stdout.split("\n").slice(0, 2), stderr]).toEqual([0, [USAGE, ""], ""]);
    expect(stdout).toContain("  --runs <n>  alternating runs of each command, a positive integer; default 9 (the planner bench takes at most 3)\n");
    const [plannerStatus, plannerOut] = bench(PLANNER_BENCH, "-h");
    expect([plannerStatus, plannerOut.split("\n")[0]]).toEqual([0, "usage: node scripts/bench/planner.js [--runs <n>]"]);
  });
});

describe("npm run bench ended by a signal", () => {
  /** Starts the bench with its own temporary folder, waits until it measures a command, then sends `signal`. */
  async function interrupt(signal: NodeJS.Signals): Promise<{ signal: NodeJS.Signals | null; left: string[] }> {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-signal-"));
    const child = spawn(process.execPath, [BENCH, "--runs", "1"], { cwd: ROOT, env: { ...process.env, TMPDIR: tmp }, stdio: "ignore" });
    const ended = new Promise<NodeJS.Signals | null>((resolve) => child.on("close", (_code, s) => resolve(s)));
    const measuring = () => fs.readdirSync(tmp).some((f) => f.startsWith("aeks-bench-") && !f.startsWith("aeks-bench-fleet-"));
    for (let waited = 0; !measuring() && waited < 60_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(measuring()).toBe(true);
    child.kill(signal);
    return { signal: await ended, left: fs.readdirSync(tmp) };
  }

  it("removes its /tmp/aeks-bench-* folders on SIGTERM and SIGINT, and ends by that signal", async () => {
    expect(await interrupt("SIGTERM")).toEqual({ signal: "SIGTERM", left: [] });
    expect(await interrupt("SIGINT")).toEqual({ signal: "SIGINT", left: [] });
  });
});
