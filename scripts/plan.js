#!/usr/bin/env node
// npm run plan -- --workload <file|dir> [--config cluster.yaml] [--region r] [--format table|markdown|json] [--live]
// What the NodePools would launch for a workload, and what it costs; see the README's planner section.

// The pinned AWS SDK declares Node >= 20; its start-up notice about releases after January 2027 needing
// Node 22 would otherwise be printed before every --live answer, error lines included.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const { requireTypeScript } = require("./lib/bundle-cache");

requireTypeScript("src/planner/cli.ts")
  .then(({ runPlanCli }) =>
    runPlanCli(process.argv.slice(2), {
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(`${text}\n`),
      env: process.env,
    }),
  )
  .then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      // A bug, not a user mistake: keep the stack.
      console.error(error);
      process.exitCode = 1;
    },
  );
