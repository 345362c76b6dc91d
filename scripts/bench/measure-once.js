// Runs one synth in this process and reports its wall time and peak resident memory as JSON on stdout.

const path = require("node:path");
const start = process.hrtime.bigint();
process.on("exit", () => {
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  process.stdout.write(`${JSON.stringify({ ms, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
});
require(path.resolve(process.argv[2]));
