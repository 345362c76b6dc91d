#!/usr/bin/env node
// The replay's benchmark: `npm run replay` end to end on a generated day (200 workloads at one-minute resolution,
// about 10,000 pods at the peak), wall time and peak RSS; then, in this process, the replay as a ratio to reading
// the same workload and curve. Usage: node scripts/bench/replay.js [--runs N]. Goal: under 60 s.

const path = require("node:path");
const { requireTypeScript } = require("../lib/bundle-cache");
const { benchRunsOrExit } = require("./bench-args");
const { remove, tempFolder } = require("./clean-exit");
const { scriptRun } = require("./script-run");

const RUNS = benchRunsOrExit(process.argv.slice(2), {
  usage: "usage: node scripts/bench/replay.js [--runs <n>]",
  help: [
    "npm run replay on a generated day: 200 workloads, a row per workload per minute.",
    "  --runs <n>  runs of the replay, the median is shown; a positive integer, default 1",
    "  --help      this text",
  ].join("\n"),
  defaultRuns: 1,
});

async function main() {
  const bench = await requireTypeScript("src/planner/bench/replay-bench.ts");
  const work = tempFolder("aeks-bench-replay-");
  try {
    const day = bench.writeGeneratedDay(work, 200);
    console.log(
      `replay bench: node ${process.version}, median of ${RUNS} runs; 200 workloads, ${day.rows.toLocaleString("en-US")} rows (a day at one minute), ${day.peakPods.toLocaleString("en-US")} pods at the peak`,
    );
    const e2e = await scriptRun(
      "replay.js",
      ["--workload", day.workloadFile, "--replicas", day.curveFile, "--config", day.configFile, "--format", "json"],
      RUNS,
      path.join(work, "replay"),
    );
    const stages = bench.timeStages(day);
    console.log(`  npm run replay end to end: ${(e2e.wallMs / 1000).toFixed(1)} s, ${e2e.peakMb.toFixed(0)} MB peak RSS (goal: under 60 s)`);
    console.log(
      `  in process: reading the workload and curve ${(stages.readMs / 1000).toFixed(2)} s; the replay ${(stages.replayMs / 1000).toFixed(1)} s, ${(stages.replayMs / stages.readMs).toFixed(0)}x reading`,
    );
  } finally {
    remove(work);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
