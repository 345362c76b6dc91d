// Preloaded into every node process of a measured command (NODE_OPTIONS=--require): at exit, appends the
// process's peak resident memory in MB to the file named by BENCH_RSS_FILE. The command's peak is the largest.

const fs = require("node:fs");

process.on("exit", () => {
  fs.appendFileSync(process.env.BENCH_RSS_FILE, `${process.resourceUsage().maxRSS / 1024}\n`);
});
