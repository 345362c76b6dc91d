#!/usr/bin/env node
// The savings report's usage reading: `npm run savings -- --state <file> --prometheus <url> --format json` end to
// end (wall time and peak RSS) on a generated cluster of about 3,000 workload containers, against a real Prometheus
// (Debian's prometheus 2.42) holding 14 days of their usage at a 5-minute scrape interval. As a ratio: the same
// report without --prometheus. Building the Prometheus data (promtool) is setup, reported apart and not timed.
// Usage: node scripts/bench/usage.js [--runs N]
// Goal: usage read and the report written in under 60 s, memory under 1 GB.

const fs = require("node:fs");
const path = require("node:path");
const { requireTypeScript } = require("../lib/bundle-cache");
const { benchRunsOrExit } = require("./bench-args");
const { remove, tempFolder } = require("./clean-exit");
const { savingsReportRun } = require("./script-run");

const RUNS = benchRunsOrExit(process.argv.slice(2), {
  usage: "usage: node scripts/bench/usage.js [--runs <n>]",
  help: [
    "npm run savings -- --prometheus on a generated cluster of about 3,000 containers with 14 days of usage, end to end.",
    "  --runs <n>  runs of each report, the median is shown; a positive integer, default 1",
    "  --help      this text",
  ].join("\n"),
  defaultRuns: 1,
});

const AT = "2026-11-26T12:00:00Z";
const DAYS = 14;
const STEP_MS = 300_000;
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** A small deterministic generator, so every run measures the same data. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Each container's CPU counter and working set over the window, at the scrape interval, streamed. */
function* seriesOf(containers, end) {
  const steps = (DAYS * 86_400_000) / STEP_MS;
  const start = end - steps * STEP_MS;
  for (const [i, c] of containers.entries()) {
    const next = random(i + 1);
    const base = 0.02 + next() * 0.4;
    const labels = { namespace: c.namespace, pod: c.pod, container: c.container, image: "registry.example/app:1.0" };
    yield {
      metric: "container_cpu_usage_seconds_total",
      labels,
      samples: (function* () {
        let counter = 0;
        for (let k = -1; k <= steps; k++) {
          counter += base * (0.5 + next()) * (STEP_MS / 1000);
          yield [start + k * STEP_MS, counter];
        }
      })(),
    };
    const memory = (64 + next() * 512) * 2 ** 20;
    yield {
      metric: "container_memory_working_set_bytes",
      labels,
      samples: (function* () {
        for (let k = 0; k <= steps; k++) yield [start + k * STEP_MS, Math.round(memory * (0.8 + 0.2 * next()))];
      })(),
    };
  }
}

async function main() {
  const prometheus = await requireTypeScript("test/helpers/prometheus-server.ts");
  if (!prometheus.prometheusAvailable()) {
    console.log("usage bench: SKIPPED, no prometheus/promtool (apt-get install -y --no-install-recommends prometheus)");
    return;
  }
  const { generatedState } = await requireTypeScript("src/savings/bench/generated-state.ts");
  const work = tempFolder("aeks-bench-usage-");
  let server;
  try {
    const state = generatedState({ nodes: 125, podsPerNode: 24 });
    const file = path.join(work, "state.json");
    fs.writeFileSync(file, JSON.stringify(state));
    const containers = state.items
      .filter((item) => item.kind === "Pod")
      .flatMap((pod) => pod.spec.containers.map((c) => ({ namespace: pod.metadata.namespace, pod: pod.metadata.name, container: c.name })));
    server = await prometheus.startPrometheus(seriesOf(containers, Date.parse(AT)), { parentDir: work, readyTimeoutMs: 300_000 });
    const t = server.timings;
    console.log(
      `usage bench: node ${process.version}, median of ${RUNS} runs; ${containers.length.toLocaleString("en-US")} containers, ${DAYS} days at 5-minute scrapes (${server.file.samples.toLocaleString("en-US")} samples; setup: ${seconds(t.writeFileMs)} writing, ${seconds(t.createBlocksMs)} promtool)`,
    );
    const without = await savingsReportRun(file, RUNS, ["--at", AT]);
    const withUsage = await savingsReportRun(file, RUNS, ["--at", AT, "--prometheus", server.url]);
    console.log(`  report alone                      ${seconds(without.wallMs).padStart(8)}  ${`${without.peakMb.toFixed(0)} MB`.padStart(8)}`);
    console.log(
      `  with --prometheus (14 days)       ${seconds(withUsage.wallMs).padStart(8)}  ${`${withUsage.peakMb.toFixed(0)} MB`.padStart(8)}   (${(withUsage.wallMs / without.wallMs).toFixed(1)}x; goal: under 60 s and 1 GB)`,
    );
  } finally {
    await server?.stop();
    remove(work);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
