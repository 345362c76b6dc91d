#!/usr/bin/env node
// npm run bench [-- --runs N]: what users wait for, measured rather than guessed.
//   synth: the cdktf.json app command end to end (what cdktf synth/diff/deploy run), node on the cached
//   bundle alone, npm run synth, and the smallest cdktf app (one aws resource, deep imports) as the floor.
//   Runs alternate so machine noise hits every command alike; medians of wall time (spawn to exit) and of
//   peak RSS (the largest node process of the command). Then a fleet of 1 to 50 clusters, the planner, and the
//   savings report, with and without usage from Prometheus, and a day replayed (npm run replay).

const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { benchRunsOrExit } = require("./bench/bench-args");
const { remove, run, tempFolder } = require("./bench/clean-exit");
const { bundlePath, ROOT } = require("./lib/bundle-cache");

const RUNS = benchRunsOrExit(process.argv.slice(2), {
  usage: "usage: npm run bench [-- --runs <n>]",
  help: [
    "Times the synth of the default cluster four ways, a fleet of 1 to 20 clusters, then the planner (docs/performance.md).",
    "  --runs <n>  alternating runs of each command, a positive integer; default 9 (the planner bench takes at most 3)",
    "  --help      this text",
  ].join("\n"),
  defaultRuns: 9,
});
const APP_COMMAND = JSON.parse(fs.readFileSync(path.join(ROOT, "cdktf.json"), "utf8")).app;
const RSS_PRELOAD = path.join(__dirname, "bench", "report-peak-rss.js");

const FLEET_SIZES = [1, 10, 50];
const FLEET_ROOT = tempFolder("aeks-bench-fleet-");

/**
 * A folder of n cluster files shaped like clusters/dev.yaml, with distinct names; with `cloud`, each keeps its
 * state in HCP Terraform, whose backend makes cdktf check `terraform version` (terraform must be on PATH).
 */
function fleetFolder(n, cloud) {
  const folder = path.join(FLEET_ROOT, `${n}${cloud ? "-cloud" : ""}`);
  if (fs.existsSync(folder)) return folder;
  fs.mkdirSync(folder);
  const dev = fs.readFileSync(path.join(ROOT, "clusters", "dev.yaml"), "utf8");
  const backend = cloud ? "\nbackend: {type: cloud, organization: acme, executionMode: agent}\n" : "";
  for (let i = 1; i <= n; i++) fs.writeFileSync(path.join(folder, `c${i}.yaml`), `${dev.replace(/^name: dev$/m, `name: c${i}`)}${backend}`);
  return folder;
}

const COMMANDS = {
  "minimal cdktf app (floor)": `node ${path.join("scripts", "bench", "minimal-app.js")}`,
  "app command (cdktf.json)": APP_COMMAND,
  // The same bundle required by plain node: no V8 code cache.
  "node on the cached bundle": "node BUNDLE",
  "npm run synth": "npm run --silent synth",
};

async function measure(command, env = {}) {
  const work = tempFolder("aeks-bench-");
  const rssFile = path.join(work, "rss");
  fs.writeFileSync(rssFile, "");
  const result = await run(command, [], {
    shell: true,
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, CDKTF_OUTDIR: path.join(work, "cdktf.out"), NODE_OPTIONS: `--require ${RSS_PRELOAD}`, BENCH_RSS_FILE: rssFile, ...env },
  });
  const wallMs = result.wallMs;
  const peakMb = Math.max(...fs.readFileSync(rssFile, "utf8").trim().split("\n").map(Number));
  remove(work);
  if (result.status !== 0) throw new Error(`${command} failed:\n${result.stderr}`);
  return { wallMs, peakMb };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Runs each command once to warm caches, then RUNS rounds in turn; returns medians by name. */
async function compare(commands, env, envOf = () => ({})) {
  const samples = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
  for (const [name, command] of Object.entries(commands)) await measure(command, { ...env, ...envOf(name) });
  for (let i = 0; i < RUNS; i++) for (const [name, command] of Object.entries(commands)) samples[name].push(await measure(command, { ...env, ...envOf(name) }));
  return Object.entries(samples).map(([name, s]) => ({ name, wallMs: median(s.map((x) => x.wallMs)), peakMb: median(s.map((x) => x.peakMb)) }));
}

async function main() {
  COMMANDS["node on the cached bundle"] = `node ${path.relative(ROOT, await bundlePath("main.ts"))}`;
  console.log(`node ${process.version}, ${os.cpus().length} CPUs, ${RUNS} alternating runs each, medians.\n`);
  console.log("Synth of the embedded default cluster (2 stacks):");
  const rows = await compare(COMMANDS, { CLUSTER_CONFIG: "" });
  const floor = rows[0];
  console.log(`  ${"command".padEnd(28)} ${"wall".padStart(8)} ${"peak RSS".padStart(9)} ${"time x".padStart(7)} ${"mem x".padStart(6)}`);
  for (const r of rows) {
    console.log(
      `  ${r.name.padEnd(28)} ${`${r.wallMs.toFixed(0)} ms`.padStart(8)} ${`${r.peakMb.toFixed(0)} MB`.padStart(9)} ${(r.wallMs / floor.wallMs).toFixed(2).padStart(7)} ${(r.peakMb / floor.peakMb).toFixed(2).padStart(6)}`,
    );
  }
  const app = rows.find((r) => r.name.startsWith("app command"));
  const synth = rows.find((r) => r.name === "npm run synth");
  console.log(
    `\n  goals: app command within 1.3x of the floor (time ${(app.wallMs / floor.wallMs).toFixed(2)}x, memory ${(app.peakMb / floor.peakMb).toFixed(2)}x); npm run synth within 1000 ms (${synth.wallMs.toFixed(0)} ms)`,
  );

  for (const cloud of [false, true]) {
    console.log(
      `\nA fleet (CLUSTER_CONFIG names a folder; each cluster like clusters/dev.yaml, ${cloud ? "state in HCP Terraform" : "local state"}), app command:`,
    );
    const fleetRows = await compare(Object.fromEntries(FLEET_SIZES.map((n) => [`${n} clusters`, APP_COMMAND])), {}, (name) => ({
      CLUSTER_CONFIG: fleetFolder(Number.parseInt(name, 10), cloud),
    }));
    console.log(`  ${"fleet".padEnd(28)} ${"wall".padStart(8)} ${"peak RSS".padStart(9)} ${"ms/cluster".padStart(11)}`);
    for (const r of fleetRows) {
      const n = Number.parseInt(r.name, 10);
      console.log(
        `  ${r.name.padEnd(28)} ${`${r.wallMs.toFixed(0)} ms`.padStart(8)} ${`${r.peakMb.toFixed(0)} MB`.padStart(9)} ${(r.wallMs / n).toFixed(0).padStart(11)}`,
      );
    }
    const [one, ...rest] = fleetRows;
    const last = rest[rest.length - 1];
    const n = Number.parseInt(last.name, 10);
    console.log(
      `  each cluster after the first adds ${((last.wallMs - one.wallMs) / (n - 1)).toFixed(0)} ms and ${((last.peakMb - one.peakMb) / (n - 1)).toFixed(1)} MB (goal: at most 50 ms)`,
    );
  }

  // The planner's own bench: 10,000 pods against every instance type, and how time grows.
  console.log("");
  const planner = await run(process.execPath, [path.join(__dirname, "bench", "planner.js"), "--runs", String(Math.min(RUNS, 3))], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (planner.status !== 0) process.exitCode = planner.status ?? 1;

  // The savings report on generated clusters of 200 to 5,000 nodes.
  console.log("");
  const savings = await run(process.execPath, [path.join(__dirname, "bench", "savings.js")], { cwd: ROOT, stdio: "inherit" });
  if (savings.status !== 0) process.exitCode = savings.status ?? 1;

  // A day of 200 workloads' replicas replayed through provisioning and consolidation.
  console.log("");
  const replay = await run(process.execPath, [path.join(__dirname, "bench", "replay.js")], { cwd: ROOT, stdio: "inherit" });
  if (replay.status !== 0) process.exitCode = replay.status ?? 1;

  // The savings report reading 14 days of 3,000 containers' usage from a real Prometheus (about 2 minutes of setup).
  console.log("");
  const usage = await run(process.execPath, [path.join(__dirname, "bench", "usage.js")], { cwd: ROOT, stdio: "inherit" });
  if (usage.status !== 0) process.exitCode = usage.status ?? 1;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
