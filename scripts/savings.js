#!/usr/bin/env node
// npm run savings -- --state <file|-> [--format table|markdown|json] [--at <time>] [--spot-to-spot]
// What a running cluster costs, where Karpenter's consolidation settles it, and why; see docs/planner.md.

require("./lib/run-cli").runCli("src/savings/savings-cli.ts", "runSavingsCli", {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
});
