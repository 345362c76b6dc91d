#!/usr/bin/env node
// npm run catalogue: rewrites the instance catalogue (src/instance-catalogue/data) and the fixed AWS list prices (src/planner/data) from
// Karpenter's reference files, or with --live --region <r> from EC2 and the AWS Price List API.

// The pinned AWS SDK declares Node >= 20; its start-up notice about releases after January 2027 needing
// Node 22 would otherwise be printed before every --live answer, error lines included.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const { ROOT, requireTypeScript } = require("./lib/bundle-cache");

// requireTypeScript is asynchronous (esbuild bundles on a cache miss): the module comes from its promise.
requireTypeScript("src/planner/catalogue/catalogue-cli.ts")
  .then(({ runCatalogueCli }) =>
    runCatalogueCli(process.argv.slice(2), {
      root: ROOT,
      out: (line) => console.log(line),
      err: (line) => console.error(line),
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
