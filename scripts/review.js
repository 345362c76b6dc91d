#!/usr/bin/env node
// npm run review [-- --workload <file|dir>]: synthesize (CLUSTER_CONFIG or the embedded default), then write
// review/<stack>/ with the resource list, the IAM statements and the Kubernetes manifests and Helm values as
// plain YAML; with a workload, also review/plan.md, the capacity and cost plan for it (Markdown with a chart,
// for a pull-request comment).

const fs = require("node:fs");
const path = require("node:path");
const { ROOT, requireTypeScript } = require("./lib/bundle-cache");
const { exitQuietlyOnClosedPipe } = require("./lib/quiet-pipe");

exitQuietlyOnClosedPipe();

const outdir = path.resolve(ROOT, process.env.CDKTF_OUTDIR || "cdktf.out");
const reviewDir = path.join(ROOT, "review");

const USAGE = "usage: npm run review [-- --workload <file|dir>]";
const HELP = `${USAGE}

Synthesizes the cluster (CLUSTER_CONFIG, else the embedded default) and writes review/<stack>/: the resources,
the IAM statements, the Kubernetes manifests and the Helm values as plain YAML.
  --workload <file|dir>  also review/plan.md: what the NodePools would launch for it, and the cost (npm run plan)
  --help                 this text
A relative --workload is read from the folder npm was run in.
`;

/** The --workload argument, or undefined; --help prints the help; any other argument is a mistake worth saying so. */
function workloadArgument(argv) {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  if (argv.length === 0) return undefined;
  if (argv.length === 2 && argv[0] === "--workload") return argv[1];
  if (argv.length === 1 && argv[0].startsWith("--workload=")) return argv[0].slice("--workload=".length);
  console.error(`npm run review: got ${JSON.stringify(argv.join(" "))}; ${USAGE}`);
  process.exit(2);
}

/** A plan is for one cluster; a fleet folder has several (npm run plan -- --config <file> plans one of them). */
function refuseFleetWithWorkload(clusterConfigPath) {
  const named = clusterConfigPath(process.env);
  if (named === undefined || !fs.statSync(named, { throwIfNoEntry: false })?.isDirectory()) return;
  console.error(
    `npm run review: --workload plans one cluster, and CLUSTER_CONFIG names a fleet folder (${named}): set CLUSTER_CONFIG to one cluster's file, or run npm run review without --workload and npm run plan -- --workload <w> --config <file>`,
  );
  process.exit(2);
}

/** The plan as Markdown, or the exit code of the planner's refusal (it has printed why). */
async function planMarkdown(workload) {
  const { runPlanCli } = await requireTypeScript("src/planner/cli.ts");
  let markdown = "";
  const code = await runPlanCli(["--workload", workload, "--format", "markdown"], {
    out: (text) => {
      markdown += text;
    },
    err: (text) => process.stderr.write(`${text}\n`),
    env: process.env,
  });
  return code === 0 ? { markdown } : { code };
}

async function main() {
  const workload = workloadArgument(process.argv.slice(2));
  // The plan first: a wrong workload must leave cdktf.out and review/ as they were.
  let plan;
  if (workload !== undefined) {
    refuseFleetWithWorkload((await requireTypeScript("src/config/load-config.ts")).clusterConfigPath);
    plan = await planMarkdown(workload);
    if (plan.code !== undefined) {
      process.exitCode = plan.code;
      return;
    }
  }
  process.env.CDKTF_OUTDIR = outdir;
  await requireTypeScript("main.ts");
  // main.ts exits on a config error, so this runs after a synth that wrote its stacks (and holds the folder's lock).
  const { writeReview } = await requireTypeScript("src/review/write-review.ts");
  const written = writeReview(outdir, reviewDir);
  if (plan !== undefined) {
    fs.writeFileSync(path.join(reviewDir, "plan.md"), plan.markdown);
    written.push(path.relative(process.cwd(), path.join(reviewDir, "plan.md")));
  }
  console.log(`Review artifacts (${written.length} files):\n${written.map((f) => `  ${f}`).join("\n")}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
