import type { ChangeJson } from "./compare-snapshots";
import type { SavingsJson } from "./savings-report";
import {
  actionRows,
  baseRows,
  changeNamespaceRows,
  moveRows,
  namespaceRows,
  noteLines,
  predictedRows,
  type Rows,
  rightsizingRows,
  summaryRows,
  unpricedRows,
  usd,
  usdMonth,
  workloadRows,
} from "./savings-rows";

// The savings report as GitHub renders it: a summary table, the actions, why the rest stays, and the warnings.

const cell = (text: string) => text.replace(/\|/g, "\\|");

function table({ header, rows }: Rows): string[] {
  return [`| ${header.join(" | ")} |`, `| ${header.map(() => "---").join(" | ")} |`, ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`)];
}

/** Now, converged and each move as a bar chart GitHub draws (Mermaid's xychart). */
function chart(report: SavingsJson): string[] {
  const bars = [
    ["now", report.now.monthlyUsd],
    ["converged", report.converged.monthlyUsd],
    ["fresh start", report.freshStart.monthlyUsd],
    ...report.moves.map((m): [string, number] => [m.name, m.monthlyUsd]),
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
  if (report.now.byNamespace.length === 0) return [];
  return ["", "## Who uses it", "", ...table(namespaceRows(report)), "", ...table(workloadRows(report))];
}

/** The containers whose requests do not match their usage (--prometheus): a table a pull request can carry. */
function rightsizingLines(report: SavingsJson): string[] {
  const sizing = report.rightsizing;
  if (sizing === undefined) return [];
  const method = `CPU p${sizing.method.cpuPercentile} of its 5-minute rate, memory peak + ${Math.round((sizing.method.memoryBuffer - 1) * 100)}%, over ${sizing.window}`;
  const rows = rightsizingRows(report);
  if (rows.rows.length === 0) return ["", "## Requests against usage", "", `Every container's requests match its usage (${method}).`];
  return ["", "## Requests against usage", "", `${method}, from ${sizing.source}; under-requested first.`, "", ...table(rows)];
}

/** The moves against a fresh start, with what each leaves behind. */
function moveLines(report: SavingsJson): string[] {
  const { freshStart, moves } = report;
  if (freshStart.podCount === 0) return [];
  const heading = report.rightsizing === undefined ? "## Graviton and spot" : "## Graviton, spot and right-sized requests";
  const lines = ["", heading, "", ...table(moveRows(report))];
  const held = moves.flatMap((m) => [
    ...(m.cannotMove === undefined ? [] : [[m.name, "-", m.cannotMove]]),
    ...m.heldBack.map((h) => [m.name, h.workload, `stays: ${h.reason}`]),
    ...m.unverified.map((u) => [m.name, u.workload, `moved, but its images were never seen on arm64: ${u.images.join(", ")}`]),
    ...m.unschedulable.map((u) => [m.name, u.workload, `${u.count} pods find no node: ${u.reason}`]),
  ]);
  if (held.length > 0) lines.push("", ...table({ header: ["move", "workload", "what happens"], rows: held }));
  return lines;
}

function changeLines(change: ChangeJson): string[] {
  return [
    "",
    "## Compared with the snapshot",
    "",
    `${cell(change.before.source)} at ${change.before.at}: ${usd(change.hourlyUsd)}/hour, ${usdMonth(change.monthlyUsd)}/month (negative is a saving). Nodes added: ${change.nodesAdded.length}; removed: ${change.nodesRemoved.length}; replaced: ${change.nodesReplaced.length}.`,
    "",
    ...table(changeNamespaceRows(change)),
    "",
    ...table(predictedRows(change)),
  ];
}

export function renderSavingsMarkdown(report: SavingsJson, change?: ChangeJson): string {
  const { now, converged } = report;
  const lines = [
    "# Savings report",
    "",
    `${cell(report.source)}, ${report.region}, at ${report.at}. Simulated with ${report.model}. Prices: ${report.prices.region} as of ${report.prices.asOf}; spot: ${report.prices.spot}. Estimates, not a bill.`,
    "",
    ...table(summaryRows(report)),
    "",
    ...table(baseRows(report)),
    "",
    ...chart(report),
    "",
    "## What consolidation does",
    "",
    ...(converged.actions.length === 0 ? ["Nothing: the cluster has settled."] : table(actionRows(report))),
  ];
  if (converged.blockers.length > 0) {
    lines.push(
      "",
      "## Why the other nodes stay",
      "",
      ...table({ header: ["node", "event", "reason (Karpenter's words)"], rows: converged.blockers.map((b) => [b.node, b.event ?? "-", b.reason]) }),
    );
  }
  if (now.unpriced.length > 0) lines.push("", "## Not priced", "", ...table(unpricedRows(report, "node")));
  lines.push(...usageLines(report), ...rightsizingLines(report), ...moveLines(report));
  const notes = [...noteLines(report), ...report.warnings];
  if (change !== undefined) lines.push(...changeLines(change));
  if (notes.length > 0) lines.push("", "## Notes", "", ...notes.map((n) => `- ${cell(n)}`));
  return `${lines.join("\n")}\n`;
}
