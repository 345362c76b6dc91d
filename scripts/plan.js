#!/usr/bin/env node
// npm run plan -- --workload <file|dir> [--config cluster.yaml] [--region r] [--format table|markdown|json] [--live]
// What the NodePools would launch for a workload, and what it costs; see docs/planner.md.

require("./lib/run-cli").runCli("src/planner/cli.ts", "runPlanCli", {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
});
