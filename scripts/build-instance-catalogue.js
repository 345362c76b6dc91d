#!/usr/bin/env node
// npm run catalogue: rewrites src/planner/data/ (the instance catalogue and the fixed AWS list prices) from
// Karpenter's reference files, or with --live --region <r> from EC2 and the AWS Price List API.

const { ROOT, requireTypeScript } = require("./lib/bundle-cache");

const { runCatalogueCli } = requireTypeScript("src/planner/catalogue/catalogue-cli.ts");
runCatalogueCli(process.argv.slice(2), {
  root: ROOT,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  env: process.env,
}).then((code) => {
  process.exitCode = code;
});
