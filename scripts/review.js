#!/usr/bin/env node
// npm run review: synthesize (CLUSTER_CONFIG or the embedded default), then write review/<stack>/ with the
// resource list, the IAM statements and the Kubernetes manifests and Helm values as plain YAML.

const { spawnSync } = require("node:child_process");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const run = (command, args) => {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: "inherit", env: { ...process.env, CHECKPOINT_DISABLE: "1" } });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
run("npx", ["tsc", "-p", "tsconfig.build.json"]);
run(process.execPath, ["dist/main.js"]);
run(process.execPath, ["dist/src/review/write-review.js", "cdktf.out", "review"]);
