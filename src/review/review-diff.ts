import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { clusterConfigPath } from "../config/load-config";
import { runPlanCli } from "../planner/cli";
import type { PlanJson } from "../planner/plan/plan-types";
import { type BaseCommit, baseConfigPath, dependenciesDiffer, inBaseWorktree, runInBase } from "./base-ref";
import { diffOutputs, readSynthesized } from "./output-diff";
import { type BaseSide, type CostSide, renderReviewDiff } from "./render-diff";
import type { StackJson } from "./stack-contents";

// npm run review -- --base <ref>: the base synthesized (and planned) by its own code in a temporary worktree,
// compared with the working tree's synth, written as review/diff.md.

export interface ReviewDiffOptions {
  readonly root: string;
  readonly base: BaseCommit;
  /** Where the working tree's synth wrote its stacks. */
  readonly headOutdir: string;
  readonly reviewDir: string;
  /** An absolute path: the same workload is planned on both sides. */
  readonly workload?: string;
  readonly env: NodeJS.ProcessEnv;
}

/** A plan's JSON from what a planner printed, or why there is none. */
function planFrom(ok: boolean, stdout: string, stderr: string): CostSide {
  if (!ok) return { error: stderr.trim().split("\n").slice(0, 3).join(" ") || "the plan failed" };
  try {
    return { plan: JSON.parse(stdout) as PlanJson };
  } catch {
    // A base older than the planner's JSON output.
    return { error: "its planner printed no JSON plan" };
  }
}

interface BaseResult {
  readonly side: BaseSide;
  readonly stacks: Map<string, StackJson>;
  readonly cost?: CostSide;
}

function synthesizeBase(options: ReviewDiffOptions, headConfig: string | undefined): BaseResult {
  const { root, base, workload } = options;
  return inBaseWorktree(root, base, (folder) => {
    const notes: string[] = [];
    if (dependenciesDiffer(root, folder)) notes.push("The base's package-lock.json differs from the working tree's: it ran with the working tree's packages.");
    const config = baseConfigPath(root, folder, headConfig);
    if (config !== undefined && !fs.existsSync(config)) {
      notes.push(`${path.relative(root, path.resolve(headConfig ?? ""))} is not in the base: everything it configures is new.`);
      return {
        side: { ...base, note: notes.join(" ") },
        stacks: new Map(),
        cost: workload === undefined ? undefined : { error: "the config is not in the base" },
      };
    }
    const env = { CLUSTER_CONFIG: config ?? "", npm_package_json: undefined };
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "aeks-review-base-out-"));
    try {
      const synth = runInBase(folder, "synth.js", [], { ...env, CDKTF_OUTDIR: outdir });
      const note = notes.length > 0 ? notes.join(" ") : undefined;
      if (!synth.ok) return { side: { ...base, note, error: failureForComment(synth.stderr || synth.stdout, [folder, outdir]) }, stacks: new Map() };
      const cost =
        workload === undefined
          ? undefined
          : (() => {
              const plan = runInBase(folder, "plan.js", ["--workload", workload, "--format", "json"], env);
              return planFrom(plan.ok, plan.stdout, plan.stderr);
            })();
      return { side: { ...base, note }, stacks: readSynthesized(outdir), cost };
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  });
}

/** The most lines of a failing base's output the review comment quotes. */
const MAX_FAILURE_LINES = 20;

/**
 * A failing base's output as the pull request comment quotes it: this machine's temporary folders named by what
 * they are, not their paths, and no more than MAX_FAILURE_LINES lines.
 */
function failureForComment(output: string, [worktree, outdir]: readonly [string, string]): string {
  const lines = output.replaceAll(worktree, "<base worktree>").replaceAll(outdir, "<base output>").replaceAll(os.tmpdir(), "<tmp>").trim().split("\n");
  return lines.length <= MAX_FAILURE_LINES
    ? lines.join("\n")
    : [...lines.slice(0, MAX_FAILURE_LINES), `... (${lines.length - MAX_FAILURE_LINES} more lines)`].join("\n");
}

async function planHead(workload: string, env: NodeJS.ProcessEnv): Promise<CostSide> {
  let stdout = "";
  let stderr = "";
  const code = await runPlanCli(["--workload", workload, "--format", "json"], {
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += `${text}\n`;
    },
    env,
  });
  return planFrom(code === 0, stdout, stderr);
}

/** Writes review/diff.md; returns its path. */
export async function writeReviewDiff(options: ReviewDiffOptions): Promise<string> {
  const headConfig = clusterConfigPath(options.env);
  const base = synthesizeBase(options, headConfig);
  const head = readSynthesized(options.headOutdir);
  const workload = options.workload;
  const markdown = renderReviewDiff({
    base: base.side,
    config: headConfig === undefined ? "the embedded default cluster" : `\`${path.relative(options.root, path.resolve(headConfig)) || "."}\``,
    clusters: diffOutputs(base.stacks, head),
    cost:
      workload === undefined
        ? undefined
        : {
            workload: path.relative(options.root, workload) || workload,
            before: base.cost ?? { error: "the base was not planned" },
            after: await planHead(workload, options.env),
          },
  });
  fs.mkdirSync(options.reviewDir, { recursive: true });
  const file = path.join(options.reviewDir, "diff.md");
  fs.writeFileSync(file, markdown);
  return file;
}
