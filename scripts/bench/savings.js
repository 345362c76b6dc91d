#!/usr/bin/env node
// The savings report's benchmark: `npm run savings -- --state <file> --format json` end to end on generated
// clusters (wall time and peak RSS), then, in this process, each stage as a ratio to reading the same file.
// Usage: node scripts/bench/savings.js [--runs N]
// Goals: 1,000 nodes and 24,000 pods, the whole report < 2 min; 5,000 nodes and 150,000 pods < 2 GB.

const path = require("node:path");
const { requireTypeScript, ROOT } = require("../lib/bundle-cache");
const { benchRunsOrExit } = require("./bench-args");
const { remove, run, tempFolder } = require("./clean-exit");
const fs = require("node:fs");

const RUNS = benchRunsOrExit(process.argv.slice(2), {
  usage: "usage: node scripts/bench/savings.js [--runs <n>]",
  help: [
    "npm run savings -- --state on generated clusters (200, 1,000 and 5,000 nodes), end to end and stage by stage.",
    "  --runs <n>  runs of each report, the median is shown; a positive integer, default 1",
    "  --help      this text",
  ].join("\n"),
  defaultRuns: 1,
});

const RSS_PRELOAD = path.join(__dirname, "report-peak-rss.js");
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (ms) => `${(ms / 1000).toFixed(1).padStart(6)} s`;

async function endToEnd(file) {
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const rss = `${file}.rss-${i}`;
    fs.writeFileSync(rss, "");
    const result = await run(process.execPath, [path.join(ROOT, "scripts", "savings.js"), "--state", file, "--format", "json"], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, NODE_OPTIONS: `--require ${RSS_PRELOAD}`, BENCH_RSS_FILE: rss },
    });
    if (result.status !== 0) throw new Error(`npm run savings failed:\n${result.stderr}`);
    samples.push({ wallMs: result.wallMs, peakMb: Math.max(...fs.readFileSync(rss, "utf8").trim().split("\n").map(Number)) });
  }
  return { wallMs: median(samples.map((s) => s.wallMs)), peakMb: median(samples.map((s) => s.peakMb)) };
}

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
      const e2e = await endToEnd(file);
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
