import { HOURS_PER_MONTH, type PlanJson } from "../planner/plan/plan-types";
import type { ClusterDiff } from "./output-diff";

// review/diff.md: one Markdown document for a pull-request comment. A comment holds at most 65,536
// characters, so long YAML diffs are cut (the full files are in review/<stack>/).

/** The marker the CI workflow finds its own comment by, to update it rather than add one per push. */
const REVIEW_MARKER = "<!-- autonomous-eks-review -->";

const MAX_DIFF_LINES = 150;
const MAX_LENGTH = 60_000;

export interface BaseSide {
  readonly ref: string;
  readonly sha: string;
  /** Why the base could not be synthesized; then there is nothing to compare with. */
  readonly error?: string;
  /** Something the reader should know about how the base was synthesized. */
  readonly note?: string;
}

export interface CostSide {
  readonly plan?: PlanJson;
  readonly error?: string;
}

export interface ReviewDiffInput {
  readonly base: BaseSide;
  /** What was synthesized: CLUSTER_CONFIG as given, or the embedded default. */
  readonly config: string;
  readonly clusters: readonly ClusterDiff[];
  readonly cost?: { readonly workload: string; readonly before: CostSide; readonly after: CostSide };
}

const usd = (value: number) => `$${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/**
 * The plan's cost of a scenario per month: its nodes (as launched, or settled by consolidation), the cluster's base
 * and the workload's Fargate pods. A base planned before plans settled has no settled figure.
 */
function monthly(plan: PlanJson, scenario: string, settled = false): { readonly usd: number; readonly nodes: number; readonly pending: number } | undefined {
  const found = plan.scenarios.find((s) => s.name === scenario);
  if (found === undefined) return undefined;
  const nodes = settled ? (found as { readonly converged?: PlanJson["scenarios"][number]["converged"] }).converged : found;
  if (nodes === undefined) return undefined;
  return {
    usd: (nodes.hourlyUsd + plan.base.hourlyUsd + plan.fargateWorkload.hourlyUsd) * HOURS_PER_MONTH,
    nodes: nodes.nodeCount,
    pending: found.unschedulable.length,
  };
}

function change(before: number, after: number, format: (n: number) => string): string {
  const delta = after - before;
  if (Math.abs(delta) < 0.005) return "no change";
  const sign = delta > 0 ? "+" : "-";
  const percent = before > 0 ? ` (${sign}${Math.abs((delta / before) * 100).toFixed(1)}%)` : "";
  return `**${sign}${format(Math.abs(delta))}**${percent}`;
}

function costSection(cost: NonNullable<ReviewDiffInput["cost"]>): string[] {
  const lines = [`#### Cost for \`${cost.workload}\` (npm run plan, each side's own planner and prices)`, ""];
  if (cost.after.plan === undefined) return [...lines, `Not planned: ${cost.after.error ?? "the working tree's plan failed"}.`, ""];
  if (cost.before.plan === undefined) {
    const after = monthly(cost.after.plan, "as-configured");
    return [
      ...lines,
      `Before: not planned (${cost.before.error ?? "the base's plan failed"}). After: ${after ? `${usd(after.usd)} a month on ${after.nodes} nodes` : "no plan"}.`,
      "",
    ];
  }
  lines.push("| per month | before | after | change |", "|---|---:|---:|---|");
  for (const [scenario, label, settled] of [
    ["as-configured", "as configured, settled by consolidation (what it costs to run)", true],
    ["as-configured", "as configured, as launched (nodes, control plane, Fargate, NAT)", false],
    ["autoscaled-max", "at the autoscalers' maximum", false],
  ] as const) {
    const before = monthly(cost.before.plan, scenario, settled);
    const after = monthly(cost.after.plan, scenario, settled);
    if (before === undefined || after === undefined) continue;
    const which = settled ? `${scenario}, settled` : scenario;
    lines.push(`| ${label} | ${usd(before.usd)} | ${usd(after.usd)} | ${change(before.usd, after.usd, usd)} |`);
    lines.push(`| nodes, ${which} | ${before.nodes} | ${after.nodes} | ${change(before.nodes, after.nodes, String)} |`);
    if (!settled && before.pending + after.pending > 0)
      lines.push(`| pods left pending, ${scenario} | ${before.pending} | ${after.pending} | ${change(before.pending, after.pending, String)} |`);
  }
  if (monthly(cost.before.plan, "as-configured", true) === undefined) lines.push("", "The base's planner has no settled figures: compare as launched.");
  return [...lines, ""];
}

function fenced(diff: string): string[] {
  const lines = diff.replace(/\n$/, "").split("\n");
  const shown = lines.slice(0, MAX_DIFF_LINES);
  const cut = lines.length > shown.length ? [`# ... ${lines.length - shown.length} more lines (review/<stack>/ holds the whole files)`] : [];
  return ["```diff", ...shown, ...cut, "```"];
}

function clusterSection(diff: ClusterDiff, cost: ReviewDiffInput["cost"]): string[] {
  const lines = [`### Cluster \`${diff.cluster}\`: ${diff.status === "added" ? "new" : diff.status}`, ""];
  if (cost !== undefined) lines.push(...costSection(cost));
  const { added, removed, changed } = diff;
  lines.push(`#### Resources: ${added.length} added, ${removed.length} removed, ${changed.length} changed`, "");
  for (const r of added) lines.push(`- added \`${r.address}\` (${r.stack} stack)`);
  for (const r of removed) lines.push(`- removed \`${r.address}\` (${r.stack} stack)`);
  for (const r of changed) lines.push(`- changed \`${r.address}\` (${r.stack} stack): ${r.attributes.map((a) => `\`${a}\``).join(", ")}`);
  lines.push("");
  if (diff.iamAdded.length + diff.iamRemoved.length > 0) {
    lines.push(`#### IAM statements: ${diff.iamAdded.length} added, ${diff.iamRemoved.length} removed`, "");
    for (const s of diff.iamAdded) lines.push(`- added, in ${s.usedBy}: ${s.statement}`);
    for (const s of diff.iamRemoved) lines.push(`- removed, from ${s.usedBy}: ${s.statement}`);
    lines.push("");
  }
  for (const { title, diff: text } of diff.yaml) lines.push(`#### ${title}`, "", ...fenced(text), "");
  return lines;
}

/** The whole comment. */
export function renderReviewDiff(input: ReviewDiffInput): string {
  const { base } = input;
  const lines = [REVIEW_MARKER, "## What this change does to the clusters", ""];
  lines.push(`Base \`${base.ref}\` (${base.sha.slice(0, 12)}) compared with the working tree; config: ${input.config}.`, "");
  if (base.note !== undefined) lines.push(`> ${base.note}`, "");
  if (base.error !== undefined) {
    lines.push(`**The base does not synthesize**, so there is nothing to compare with:`, "", "```", base.error.trim(), "```", "");
    return `${lines.join("\n")}\n`;
  }
  const changed = input.clusters.filter((c) => c.status !== "unchanged");
  const unchanged = input.clusters.filter((c) => c.status === "unchanged");
  if (changed.length === 0) lines.push("No change to any cluster's Terraform, manifests or Helm values.", "");
  // The plan is of one cluster (review refuses a workload with a fleet): it goes with that cluster.
  for (const diff of changed) lines.push(...clusterSection(diff, changed.length === 1 ? input.cost : undefined));
  if (changed.length === 0 && input.cost !== undefined) lines.push(...costSection(input.cost));
  for (const diff of unchanged) lines.push(`- \`${diff.cluster}\`: no change`);
  let text = `${lines.join("\n")}\n`;
  if (text.length > MAX_LENGTH) {
    const cut = text.slice(0, MAX_LENGTH);
    // Close a code block the cut left open.
    const open = (cut.match(/^```/gm)?.length ?? 0) % 2 === 1 ? "\n```" : "";
    text = `${cut}${open}\n\n... cut at ${MAX_LENGTH} characters; review/ holds everything.\n`;
  }
  return text;
}
