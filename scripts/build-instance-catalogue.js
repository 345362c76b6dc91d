#!/usr/bin/env node
// npm run catalogue: rewrites the instance catalogue (src/instance-catalogue/data) and the fixed AWS list prices (src/planner/data) from
// Karpenter's reference files, or with --live --region <r> from EC2 and the AWS Price List API.

const { ROOT } = require("./lib/bundle-cache");

require("./lib/run-cli").runCli("src/planner/catalogue-cli.ts", "runCatalogueCli", {
  root: ROOT,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  env: process.env,
});
