#!/usr/bin/env node
// npm run plan -- --workload <file|dir> [--config cluster.yaml] [--region r] [--format table|markdown|json] [--live]
// What the NodePools would launch for a workload, and what it costs; see the README's planner section.

const { requireTypeScript } = require("./lib/bundle-cache");

const { runPlanCli } = requireTypeScript("src/planner/cli.ts");
runPlanCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    // A bug, not a user mistake: keep the stack.
    console.error(error);
    process.exitCode = 1;
  },
);
