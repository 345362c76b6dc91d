#!/usr/bin/env node
// npm run review [-- --base <ref>] [--workload <file|dir>]: synthesize (CLUSTER_CONFIG or the embedded
// default), then write review/<stack>/ with the resource list, the IAM statements and the Kubernetes manifests
// and Helm values as plain YAML; with a workload, also review/plan.md, the capacity and cost plan for it
// (Markdown with a chart); with a base ref, also review/diff.md, what the change does to each cluster and its
// cost, for a pull-request comment.

const fs = require("node:fs");
const path = require("node:path");
const { ROOT, requireTypeScript } = require("./lib/bundle-cache");
const { exitQuietlyOnClosedPipe } = require("./lib/quiet-pipe");

exitQuietlyOnClosedPipe();

const outdir = path.resolve(ROOT, process.env.CDKTF_OUTDIR || "cdktf.out");
const reviewDir = path.join(ROOT, "review");

const USAGE = "usage: npm run review [-- --base <git ref>] [--workload <file|dir>]";
const HELP = `${USAGE}

Synthesizes the cluster (CLUSTER_CONFIG, else the embedded default) and writes review/<stack>/: the resources,
the IAM statements, the Kubernetes manifests and the Helm values as plain YAML.
  --workload <file|dir>  also review/plan.md: what the NodePools would launch for it, and the cost (npm run plan)
  --base <git ref>       also review/diff.md: the base synthesized in a temporary worktree and compared with the
                         working tree, cluster by cluster: resources, IAM statements, NodePool, EC2NodeClass and
                         Helm values diffs, and with --workload the monthly cost before and after
  --help                 this text
A relative --workload is read from the folder npm was run in.
`;

/** The flags: --workload and --base, each once, as "--flag value" or "--flag=value"; --help prints the help. */
function parseArguments(argv) {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const flags = {};
  for (let i = 0; i < argv.length; i++) {
    const match = /^--(workload|base)(?:=(.*))?$/.exec(argv[i]);
    const value = match && (match[2] ?? argv[i + 1]);
    if (!match || value === undefined || value === "" || flags[match[1]] !== undefined) {
      console.error(`npm run review: got ${JSON.stringify(argv.join(" "))}; ${USAGE}`);
      process.exit(2);
    }
    flags[match[1]] = value;
    if (match[2] === undefined) i++;
  }
  return flags;
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
  const { workload, base } = parseArguments(process.argv.slice(2));
  // The plan and the base ref first: a wrong workload or ref must leave cdktf.out and review/ as they were.
  let plan;
  if (workload !== undefined) {
    refuseFleetWithWorkload((await requireTypeScript("src/config/load-config.ts")).clusterConfigPath);
    plan = await planMarkdown(workload);
    if (plan.code !== undefined) {
      process.exitCode = plan.code;
      return;
    }
  }
  let baseCommit;
  if (base !== undefined) {
    const { resolveBaseRef } = await requireTypeScript("src/review/base-ref.ts");
    baseCommit = resolveBaseRef(ROOT, base);
    if (baseCommit.problem !== undefined) {
      console.error(`npm run review: --base: ${baseCommit.problem}`);
      process.exitCode = 2;
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
  if (baseCommit !== undefined) {
    const { writeReviewDiff } = await requireTypeScript("src/review/review-diff.ts");
    const { userFolder } = await requireTypeScript("src/shared/user-folder.ts");
    const file = await writeReviewDiff({
      root: ROOT,
      base: baseCommit,
      headOutdir: outdir,
      reviewDir,
      workload: workload === undefined ? undefined : path.resolve(userFolder(process.env), workload),
      env: process.env,
    });
    written.push(path.relative(process.cwd(), file));
  }
  console.log(`Review artifacts (${written.length} files):\n${written.map((f) => `  ${f}`).join("\n")}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
