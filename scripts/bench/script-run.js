// A project script (`npm run savings`, `npm run replay`) run end to end, `runs` times: the median wall time
// (spawn to exit) and the median peak RSS (the report-peak-rss.js preload writes it). Shared by the savings, usage
// and replay benches.

const fs = require("node:fs");
const path = require("node:path");
const { ROOT } = require("../lib/bundle-cache");
const { run } = require("./clean-exit");

const RSS_PRELOAD = path.join(__dirname, "report-peak-rss.js");
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** `node scripts/<script> ...args`, `runs` times; `scratch` names a file beside which the RSS notes are written. */
async function scriptRun(script, args, runs, scratch) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const rss = `${scratch}.rss-${i}`;
    fs.writeFileSync(rss, "");
    const result = await run(process.execPath, [path.join(ROOT, "scripts", script), ...args], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, NODE_OPTIONS: `--require ${RSS_PRELOAD}`, BENCH_RSS_FILE: rss },
    });
    if (result.status !== 0) throw new Error(`scripts/${script} failed:\n${result.stderr}`);
    samples.push({ wallMs: result.wallMs, peakMb: Math.max(...fs.readFileSync(rss, "utf8").trim().split("\n").map(Number)) });
  }
  return { wallMs: median(samples.map((s) => s.wallMs)), peakMb: median(samples.map((s) => s.peakMb)) };
}

/** `npm run savings -- --state <file> --format json [...]`. */
const savingsReportRun = (file, runs, extra = []) => scriptRun("savings.js", ["--state", file, "--format", "json", ...extra], runs, file);

module.exports = { savingsReportRun, scriptRun };
