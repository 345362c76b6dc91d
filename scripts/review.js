#!/usr/bin/env node
// npm run review: synthesize (CLUSTER_CONFIG or the embedded default), then write review/<stack>/ with the
// resource list, the IAM statements and the Kubernetes manifests and Helm values as plain YAML.

const path = require("node:path");
const { ROOT, requireTypeScript } = require("./lib/bundle-cache");

const outdir = path.resolve(ROOT, process.env.CDKTF_OUTDIR || "cdktf.out");
process.env.CDKTF_OUTDIR = outdir;
async function main() {
  await requireTypeScript("main.ts");
  const { writeReview } = await requireTypeScript("src/review/write-review.ts");
  const written = writeReview(outdir, path.join(ROOT, "review"));
  console.log(`Review artifacts (${written.length} files):\n${written.map((f) => `  ${f}`).join("\n")}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
