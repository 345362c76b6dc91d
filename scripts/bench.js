#!/usr/bin/env node
// Synth wall time and peak memory of the full default app against the smallest cdktf app (one aws
// resource, deep imports). Runs alternate so that machine noise hits both alike; reports medians.
// Usage: npm run bench [-- --runs N]

const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 9;

const APPS = {
  "minimal (1 resource)": path.join(__dirname, "bench", "minimal-app.js"),
  "full default app": path.join(ROOT, "dist", "main.js"),
};

function build() {
  const result = spawnSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function measure(appFile) {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "aeks-bench-"));
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [path.join(__dirname, "bench", "measure-once.js"), appFile], {
    cwd: ROOT,
    env: { ...process.env, CDKTF_OUTDIR: outdir, CLUSTER_CONFIG: "" },
    encoding: "utf8",
  });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  fs.rmSync(outdir, { recursive: true, force: true });
  if (result.status !== 0) throw new Error(`${appFile} failed:\n${result.stderr}`);
  const inner = JSON.parse(result.stdout.trim().split("\n").pop());
  return { wallMs, maxRssMb: inner.maxRssMb };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

build();
const samples = Object.fromEntries(Object.keys(APPS).map((name) => [name, []]));
for (const name of Object.keys(APPS)) measure(APPS[name]); // warm the file cache once
for (let i = 0; i < RUNS; i++) for (const [name, file] of Object.entries(APPS)) samples[name].push(measure(file));

const rows = Object.entries(samples).map(([name, s]) => ({ name, wallMs: median(s.map((x) => x.wallMs)), maxRssMb: median(s.map((x) => x.maxRssMb)) }));
const [floor, full] = rows;
console.log(`node ${process.version}, ${os.cpus().length} CPUs, ${RUNS} alternating runs each, medians (process start to exit, synth included):`);
for (const r of rows) console.log(`  ${r.name.padEnd(22)} ${r.wallMs.toFixed(0).padStart(6)} ms  ${r.maxRssMb.toFixed(0).padStart(5)} MB peak RSS`);
console.log(
  `  ratio full/minimal      ${(full.wallMs / floor.wallMs).toFixed(2).padStart(6)} x   ${(full.maxRssMb / floor.maxRssMb).toFixed(2).padStart(5)} x   (goal: within 3x)`,
);
