// `npm run savings -- --state <file> --format json [...]` run end to end, `runs` times: the median wall time
// (spawn to exit) and the median peak RSS (the report-peak-rss.js preload writes it). Shared by the savings and
// usage benches.

const fs = require("node:fs");
const path = require("node:path");
const { ROOT } = require("../lib/bundle-cache");
const { run } = require("./clean-exit");

const RSS_PRELOAD = path.join(__dirname, "report-peak-rss.js");
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function savingsReportRun(file, runs, extra = []) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const rss = `${file}.rss-${i}`;
    fs.writeFileSync(rss, "");
    const result = await run(process.execPath, [path.join(ROOT, "scripts", "savings.js"), "--state", file, "--format", "json", ...extra], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, NODE_OPTIONS: `--require ${RSS_PRELOAD}`, BENCH_RSS_FILE: rss },
    });
    if (result.status !== 0) throw new Error(`npm run savings failed:\n${result.stderr}`);
    samples.push({ wallMs: result.wallMs, peakMb: Math.max(...fs.readFileSync(rss, "utf8").trim().split("\n").map(Number)) });
  }
  return { wallMs: median(samples.map((s) => s.wallMs)), peakMb: median(samples.map((s) => s.peakMb)) };
}

module.exports = { savingsReportRun };
