#!/usr/bin/env node
// The planner's benchmark: a whole plan (as-configured, amd64-only, multiarch, on-demand-only) for 10,000
// pods against every instance type of the catalogue, then how the time grows with pods and with types.
// Usage: node scripts/bench/planner.js [--runs N]   (goal: 10,000 pods in under 2 s)

const { requireTypeScript } = require("../lib/bundle-cache");
const { benchRunsOrExit } = require("./bench-args");

const RUNS = benchRunsOrExit(process.argv.slice(2), {
  usage: "usage: node scripts/bench/planner.js [--runs <n>]",
  help: [
    "A whole plan (4 scenarios) for 10,000 pods against every instance type, then how time grows with pods and types.",
    "  --runs <n>  runs of each plan, the median is shown; a positive integer, default 5",
    "  --help      this text",
  ].join("\n"),
  defaultRuns: 5,
});

async function main() {
  const bench = await requireTypeScript("src/planner/bench/planner-bench.ts");

  const started = process.hrtime.bigint();
  const catalogue = bench.subCatalogue(Number.MAX_SAFE_INTEGER);
  const loadMs = Number(process.hrtime.bigint() - started) / 1e6;
  const cluster = bench.allTypesCluster(catalogue);
  const fmt = (ms) => `${ms.toFixed(0).padStart(6)} ms`;

  console.log(`planner bench: node ${process.version}, median of ${RUNS} runs, a whole plan (4 scenarios); catalogue loaded in ${loadMs.toFixed(0)} ms`);
  const headline = bench.timePlan(cluster, catalogue, bench.syntheticWorkload(10000, 50), RUNS);
  console.log(
    `  10,000 pods (200 Deployments) x ${catalogue.types.length} types: ${fmt(headline.medianMs)}  (${headline.nodes} nodes as configured; goal < 2000 ms)`,
  );
  const distinct = bench.timePlan(cluster, catalogue, bench.syntheticWorkload(10000, 1), RUNS);
  console.log(`  10,000 distinct pods       x ${catalogue.types.length} types: ${fmt(distinct.medianMs)}  (${distinct.nodes} nodes)`);

  console.log("  growth with pods (all types): Deployments of 50 replicas | every pod distinct");
  for (const pods of [1000, 2500, 5000, 10000, 20000]) {
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
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
