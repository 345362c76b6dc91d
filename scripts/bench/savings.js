#!/usr/bin/env node
// The savings report's benchmark: `npm run savings -- --state <file> --format json` end to end on generated
// clusters (wall time and peak RSS), then, in this process, each stage as a ratio to reading the same file.
// Usage: node scripts/bench/savings.js [--runs N]
// Goals: 1,000 nodes and 24,000 pods, the whole report < 2 min; 5,000 nodes and 150,000 pods < 2 GB.

const path = require("node:path");
const { requireTypeScript } = require("../lib/bundle-cache");
const { benchRunsOrExit } = require("./bench-args");
const { remove, tempFolder } = require("./clean-exit");
const { savingsReportRun } = require("./script-run");

const RUNS = benchRunsOrExit(process.argv.slice(2), {
  usage: "usage: node scripts/bench/savings.js [--runs <n>]",
  help: [
    "npm run savings -- --state on generated clusters (200, 1,000 and 5,000 nodes), end to end and stage by stage.",
    "  --runs <n>  runs of each report, the median is shown; a positive integer, default 1",
    "  --help      this text",
  ].join("\n"),
  defaultRuns: 1,
});

const seconds = (ms) => `${(ms / 1000).toFixed(1).padStart(6)} s`;

async function main() {
  const bench = await requireTypeScript("src/savings/bench/savings-bench.ts");
  const work = tempFolder("aeks-bench-savings-");
  console.log(`savings bench: node ${process.version}, median of ${RUNS} runs; npm run savings -- --state <file> --format json end to end`);
  console.log(
    `  ${"cluster".padEnd(34)} ${"file".padStart(8)} ${"wall".padStart(8)} ${"peak RSS".padStart(9)}   stages: read | state | settle | moves  (x read)`,
  );
  try {
    for (const [nodes, podsPerNode] of [
      [200, 24],
      [1000, 24],
      [5000, 30],
    ]) {
      const file = path.join(work, `state-${nodes}.json`);
      const { pods, bytes } = bench.writeGeneratedState(file, nodes, podsPerNode);
      const e2e = await savingsReportRun(file, RUNS);
      const s = bench.timeStages(file);
      const ratio = (ms) => `${(ms / s.readMs).toFixed(1)}x`;
      console.log(
        `  ${`${nodes.toLocaleString("en-US")} nodes, ${pods.toLocaleString("en-US")} pods`.padEnd(34)} ${`${(bytes / 2 ** 20).toFixed(0)} MB`.padStart(8)} ${seconds(e2e.wallMs)} ${`${e2e.peakMb.toFixed(0)} MB`.padStart(9)}   ${seconds(s.readMs)} | ${seconds(s.stateMs)} (${ratio(s.stateMs)}) | ${seconds(s.settleMs)} (${ratio(s.settleMs)}, ${s.actions} actions, ${s.nodesBefore} -> ${s.nodesAfter} nodes) | ${seconds(s.movesMs)} (${ratio(s.movesMs)})`,
      );
      remove(file);
    }
  } finally {
    remove(work);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
