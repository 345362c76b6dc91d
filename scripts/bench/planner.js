#!/usr/bin/env node
// The planner's benchmark, end to end as users run it: `node scripts/plan.js --workload <folder> --format json`
// on generated manifests (reading the YAML included), wall time and peak RSS, median of a few runs; then, in
// this process, how a whole plan grows with pods and instance types.
// Usage: node scripts/bench/planner.js [--runs N]   (goals: 10,000 distinct pods < 1.5 s, 100,000 < 15 s, < 1 GB; settling every scenario included)

const fs = require("node:fs");
const path = require("node:path");
const { requireTypeScript, ROOT } = require("../lib/bundle-cache");
const { benchRunsOrExit } = require("./bench-args");
const { remove, run, tempFolder } = require("./clean-exit");

const RUNS = benchRunsOrExit(process.argv.slice(2), {
  usage: "usage: node scripts/bench/planner.js [--runs <n>]",
  help: [
    "npm run plan end to end on generated manifests (10,000 and 100,000 distinct pods), then how a plan grows with pods and types.",
    "  --runs <n>  runs of each plan, the median is shown; a positive integer, default 3",
    "  --help      this text",
  ].join("\n"),
  defaultRuns: 3,
});

const RSS_PRELOAD = path.join(__dirname, "report-peak-rss.js");
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** `npm run plan` on a folder of manifests: median wall time and peak RSS. */
async function endToEnd(bench, pods, replicas) {
  const work = tempFolder("aeks-bench-plan-");
  const workload = path.join(work, "workload");
  fs.mkdirSync(workload);
  for (const [i, text] of bench.syntheticManifests(pods, replicas).entries()) {
    fs.writeFileSync(path.join(workload, `w${String(i).padStart(3, "0")}.yaml`), text);
  }
  const config = path.join(work, "cluster.yaml");
  fs.writeFileSync(config, bench.UNLIMITED_DEFAULT_POOL);
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const rss = path.join(work, `rss-${i}`);
    fs.writeFileSync(rss, "");
    const result = await run(process.execPath, [path.join(ROOT, "scripts", "plan.js"), "--workload", workload, "--config", config, "--format", "json"], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, NODE_OPTIONS: `--require ${RSS_PRELOAD}`, BENCH_RSS_FILE: rss },
    });
    if (result.status !== 0) throw new Error(`npm run plan failed:\n${result.stderr}`);
    samples.push({ wallMs: result.wallMs, peakMb: Math.max(...fs.readFileSync(rss, "utf8").trim().split("\n").map(Number)) });
  }
  remove(work);
  return { wallMs: median(samples.map((s) => s.wallMs)), peakMb: median(samples.map((s) => s.peakMb)) };
}

async function main() {
  const bench = await requireTypeScript("src/planner/bench/planner-bench.ts");
  const fmt = (ms) => `${ms.toFixed(0).padStart(6)} ms`;
  console.log(`planner bench: node ${process.version}, median of ${RUNS} runs; npm run plan end to end (YAML read, four scenarios, JSON written)`);
  console.log("  on the default pool (c, m, r; generation 3+), limits that do not bind:");
  for (const [pods, replicas, goal] of [
    [10000, 50, undefined],
    [10000, 1, 1500],
    [100000, 1, 15000],
  ]) {
    const r = await endToEnd(bench, pods, replicas);
    const what = replicas === 1 ? "distinct pods" : `pods in Deployments of ${replicas}`;
    const target = goal === undefined ? "" : `  (goal < ${goal} ms, < 1024 MB)`;
    console.log(`    ${String(pods.toLocaleString("en-US")).padStart(7)} ${what.padEnd(30)} ${fmt(r.wallMs)}  ${r.peakMb.toFixed(0).padStart(5)} MB${target}`);
  }

  const catalogue = bench.subCatalogue(Number.MAX_SAFE_INTEGER);
  const cluster = bench.allTypesCluster(catalogue);
  console.log(`  in this process, a whole plan against all ${catalogue.types.length} types (no YAML): Deployments of 50 | every pod distinct`);
  for (const pods of [2500, 5000, 10000, 20000, 40000]) {
    const grouped = bench.timePlan(cluster, catalogue, bench.syntheticWorkload(pods, 50), RUNS);
    const single = bench.timePlan(cluster, catalogue, bench.syntheticWorkload(pods, 1), RUNS);
    console.log(`    ${String(pods).padStart(6)} pods  ${fmt(grouped.medianMs)}  | ${fmt(single.medianMs)}  (${single.nodes} nodes)`);
  }
  console.log("  growth with types (10,000 distinct pods; the first N types by name):");
  for (const types of [100, 300, 600, 1000, catalogue.types.length]) {
    const sub = bench.subCatalogue(types);
    const r = bench.timePlan(bench.allTypesCluster(sub), sub, bench.syntheticWorkload(10000, 1), RUNS);
    console.log(`    ${String(types).padStart(6)} types ${fmt(r.medianMs)}  (${r.nodes} nodes)`);
  }
  console.log("  launch, then settling by consolidation, every scenario (all types; goal: settled plan within 3x the launch):");
  for (const pods of [10000, 40000]) {
    const { launchMs, settleMs } = bench.timeLaunchAndSettle(cluster, catalogue, bench.syntheticWorkload(pods, 1));
    console.log(
      `    ${String(pods).padStart(6)} distinct pods  launch ${fmt(launchMs)}  settle ${fmt(settleMs)}  settled plan ${((launchMs + settleMs) / launchMs).toFixed(2)}x the launch`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
