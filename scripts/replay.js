#!/usr/bin/env node
// npm run replay -- --workload <file|dir> --replicas curve.csv [--config cluster.yaml] [--format table|markdown|json]
// Replicas over time played through Karpenter's provisioning and consolidation, and the period's cost; see docs/planner.md.

require("./lib/run-cli").runCli("src/planner/replay/replay-cli.ts", "runReplayCli", {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
});
