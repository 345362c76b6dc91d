import { HOURS_PER_MONTH } from "../planner/plan/plan-types";
import type { ChangeJson } from "./compare-snapshots";
import type { NodeJson, SavingsJson } from "./savings-report";

// The savings report as GitHub renders it: a summary table, the actions, why the rest stays, and the warnings.

const usd = (v: number) => `$${v.toFixed(4)}`;
const usdMonth = (v: number) => `$${v.toFixed(2)}`;
const cell = (text: string) => text.replace(/\|/g, "\\|");
const node = (n: NodeJson) => `${n.name} (${n.instanceType}, ${n.capacityType}${n.zone === null ? "" : `, ${n.zone}`})`;

function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [`| ${header.join(" | ")} |`, `| ${header.map(() => "---").join(" | ")} |`, ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`)];
}

/** Now, converged and each move as a bar chart GitHub draws (Mermaid's xychart). */
function chart(report: SavingsJson): string[] {
  const bars = [
    ["now", report.now.monthlyUsd],
    ["converged", report.converged.monthlyUsd],
    ["fresh start", report.moves.baseline.monthlyUsd],
    ...report.moves.moves.map((m): [string, number] => [m.name, m.monthlyUsd]),
  ] as [string, number][];
  return [
    "```mermaid",
    "xychart-beta",
    '  title "What the cluster costs a month (USD)"',
    `  x-axis [${bars.map(([name]) => `"${name}"`).join(", ")}]`,
    '  y-axis "USD per month"',
    `  bar [${bars.map(([, usd]) => usd.toFixed(2)).join(", ")}]`,
    "```",
  ];
}

/** Who uses the cluster: namespaces with idle, then the ten costliest workloads. */
function usageLines(report: SavingsJson): string[] {
  const { now } = report;
  if (now.byNamespace.length === 0) return [];
  return [
    "",
    "## Who uses it",
    "",
    ...table(
      ["namespace", "$/hour", "$/month"],
      [
        ...now.byNamespace.map((n) => [n.namespace, usd(n.hourlyUsd), usdMonth(n.hourlyUsd * HOURS_PER_MONTH)]),
        ["(idle: requested by no pod)", usd(now.idleHourlyUsd), usdMonth(now.idleHourlyUsd * HOURS_PER_MONTH)],
      ],
    ),
    "",
    ...table(
      ["costliest workloads", "$/hour"],
      now.byWorkload.slice(0, 10).map((w) => [`${w.namespace}/${w.workload}`, usd(w.hourlyUsd)]),
    ),
  ];
}

/** The moves against a fresh start, with what each leaves behind. */
function moveLines(report: SavingsJson): string[] {
  const { baseline, moves, notes } = report.moves;
  if (baseline.podCount === 0) return [];
  const lines = [
    "",
    "## Graviton and spot",
    "",
    ...table(
      ["what-if", "nodes", "$/hour", "$/month", "saves $/month"],
      [
        [`fresh start (${baseline.pools})`, String(baseline.nodeCount), usd(baseline.hourlyUsd), usdMonth(baseline.monthlyUsd), "-"],
        ...moves.map((m) => [m.name, String(m.nodeCount), usd(m.hourlyUsd), usdMonth(m.monthlyUsd), usdMonth(m.savingMonthlyUsd)]),
      ],
    ),
  ];
  const held = moves.flatMap((m) => [
    ...m.heldBack.map((h) => [m.name, h.workload, `stays: ${h.reason}`]),
    ...m.unverified.map((u) => [m.name, u.workload, `moved, but its images were never seen on arm64: ${u.images.join(", ")}`]),
    ...m.unschedulable.map((u) => [m.name, u.workload, `${u.count} pods find no node: ${u.reason}`]),
  ]);
  if (held.length > 0) lines.push("", ...table(["move", "workload", "what happens"], held));
  return [...lines, "", ...notes.map((n) => `- ${cell(n)}`)];
}

function changeLines(change: ChangeJson): string[] {
  return [
    "",
    "## Compared with the snapshot",
    "",
    `${cell(change.before.source)} at ${change.before.at}: ${usd(change.hourlyUsd)}/hour, ${usdMonth(change.monthlyUsd)}/month (negative is a saving). Nodes added: ${change.nodesAdded.length}; removed: ${change.nodesRemoved.length}; replaced: ${change.nodesReplaced.length}.`,
    "",
    ...table(
      ["namespace", "before $/hour", "now $/hour", "change"],
      change.byNamespace.map((n) => [n.namespace, usd(n.beforeHourlyUsd), usd(n.nowHourlyUsd), usd(n.changeHourlyUsd)]),
    ),
    "",
    ...table(
      ["the snapshot predicted", "predicted $/hour", "measured $/hour", "difference"],
      change.predicted.map((p) => [p.what, usd(p.predictedHourlyUsd), usd(p.measuredHourlyUsd), usd(p.differenceHourlyUsd)]),
    ),
  ];
}

export function renderSavingsMarkdown(report: SavingsJson, change?: ChangeJson): string {
  const { now, converged } = report;
  const lines = [
    "# Savings report",
    "",
    `${cell(report.source)}, ${report.region}, at ${report.at}. Simulated with ${report.model}. Prices: ${report.prices.region} as of ${report.prices.asOf}; spot: ${report.prices.spot}. Estimates, not a bill.`,
    "",
    ...table(
      ["", "nodes", "$/hour", "$/month"],
      [
        ["now", String(now.nodeCount), usd(now.hourlyUsd), usdMonth(now.monthlyUsd)],
        ["converged", String(converged.nodeCount), usd(converged.hourlyUsd), usdMonth(converged.monthlyUsd)],
        ["saving", String(now.nodeCount - converged.nodeCount), usd(report.savingHourlyUsd), usdMonth(report.savingMonthlyUsd)],
      ],
    ),
    "",
    ...chart(report),
    "",
    "## What consolidation does",
    "",
    ...(converged.actions.length === 0
      ? ["Nothing: the cluster has settled."]
      : table(
          ["#", "consolidation", "nodes", "replaced by", "saves $/hour"],
          converged.actions.map((a, i) => [
            String(i + 1),
            `${a.method} ${a.kind}`,
            a.nodes.join(", "),
            a.replacement === null ? "-" : node(a.replacement),
            usd(a.savingHourlyUsd),
          ]),
        )),
  ];
  if (converged.blockers.length > 0) {
    lines.push(
      "",
      "## Why the other nodes stay",
      "",
      ...table(
        ["node", "event", "reason (Karpenter's words)"],
        converged.blockers.map((b) => [b.node, b.event, b.reason]),
      ),
    );
  }
  if (now.unpriced.length > 0)
    lines.push(
      "",
      "## Not priced",
      "",
      ...table(
        ["node", "instance type", "why"],
        now.unpriced.map((u) => [u.node, u.instanceType, u.reason]),
      ),
    );
  lines.push(...usageLines(report), ...moveLines(report));
  const notes = [
    ...(report.fargate.podCount > 0 ? [`${report.fargate.podCount} Fargate pods, ${usd(report.fargate.hourlyUsd)}/hour: ${report.fargate.note}.`] : []),
    ...(report.pending.length > 0 ? [`Pending (bound to no node): ${report.pending.map((p) => `${p.workload} (${p.count})`).join(", ")}.`] : []),
    ...(report.unread.length > 0 ? [`Not read: ${report.unread.map((u) => `${u.kind} (${u.reason})`).join(", ")}.`] : []),
    ...report.warnings,
  ];
  if (change !== undefined) lines.push(...changeLines(change));
  if (notes.length > 0) lines.push("", "## Notes", "", ...notes.map((n) => `- ${cell(n)}`));
  return `${lines.join("\n")}\n`;
}
