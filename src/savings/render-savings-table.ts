import { plural } from "../shared/plural";
import { columns } from "../shared/text-columns";
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
  RIGHTSIZING_SHOWN,
  type Rows,
  rightsizingRows,
  summaryRows,
  unpricedRows,
  usd,
  usdMonth,
  workloadRows,
} from "./savings-rows";

// The savings report for a terminal. Its warnings go to stderr, where they stay in sight when it is piped.

/** The rows as aligned columns; `right`: the columns of figures. */
const laid = ({ header, rows }: Rows, right: readonly number[]) => columns(header, new Set(right), rows);

const workloads = (n: number) => plural(n, "workload");

/** At most `n` names, then how many more. */
const some = (names: readonly string[], n = 5) => (names.length <= n ? names.join(", ") : `${names.slice(0, n).join(", ")} and ${names.length - n} more`);

/** Who uses what the cluster costs: the namespaces, what no pod requests, and the costliest workloads. */
function usageLines(report: SavingsJson): string[] {
  if (report.now.byNamespace.length === 0) return [];
  return ["", ...laid(namespaceRows(report), [1, 2]), "", ...laid(workloadRows(report), [1])];
}

/** The containers whose requests do not match their usage (--prometheus), and how usage was read. */
function rightsizingLines(report: SavingsJson): string[] {
  const sizing = report.rightsizing;
  if (sizing === undefined) return [];
  const { header, rows } = rightsizingRows(report);
  const method = `CPU p${sizing.method.cpuPercentile} of its 5-minute rate, memory peak + ${Math.round((sizing.method.memoryBuffer - 1) * 100)}%, over ${sizing.window}, from ${sizing.source}`;
  if (rows.length === 0) return ["", `Every container's requests match its usage (${method}).`];
  const more = sizing.workloads.flatMap((w) => w.containers).filter((c) => c.status === "under" || c.status === "over").length - RIGHTSIZING_SHOWN;
  return ["", `Requests against usage (${method}):`, ...laid({ header, rows }, [5]), ...(more > 0 ? [`and ${more} more in --format json`] : [])];
}

/** What Graviton and spot would save, each against a fresh start on the NodePools as they are. */
function moveLines(report: SavingsJson): string[] {
  const { freshStart, moves } = report;
  if (freshStart.podCount === 0) return ["", "No pods on Karpenter's nodes to re-plan: the moves are not priced."];
  const lines = ["", ...laid(moveRows(report), [1, 2, 3, 4, 5])];
  for (const m of moves) {
    if (m.cannotMove !== undefined) lines.push(`${m.name}: ${m.cannotMove}.`);
    if (m.heldBack.length > 0)
      lines.push(
        `${m.name} leaves ${workloads(m.heldBack.length)} where they run: ${some(
          m.heldBack.map((h) => `${h.workload} (${h.reason})`),
          3,
        )}.`,
      );
    if (m.unverified.length > 0)
      lines.push(
        `${m.name} moves ${workloads(m.unverified.length)} whose images were never seen on arm64: check ${some(
          m.unverified.flatMap((u) => u.images),
          3,
        )} have arm64 variants.`,
      );
    if (m.unschedulable.length > 0)
      lines.push(
        `${m.name} finds no node for ${some(
          m.unschedulable.map((u) => `${u.workload} (${u.count}): ${u.reason}`),
          3,
        )}.`,
      );
  }
  return lines;
}

function changeLines(change: ChangeJson): string[] {
  return [
    "",
    `Compared with ${change.before.source} at ${change.before.at}: ${
      change.hourlyUsd === 0
        ? "the same cost"
        : `${usd(Math.abs(change.hourlyUsd))}/hour, ${usdMonth(Math.abs(change.monthlyUsd))}/month ${change.hourlyUsd < 0 ? "less" : "more"}`
    }.`,
    `Nodes added ${change.nodesAdded.length}${change.nodesAdded.length > 0 ? ` (${some(change.nodesAdded.map((n) => `${n.name} ${n.instanceType}`))})` : ""}; removed ${change.nodesRemoved.length}${change.nodesRemoved.length > 0 ? ` (${some(change.nodesRemoved.map((n) => `${n.name} ${n.instanceType}`))})` : ""}; replaced ${change.nodesReplaced.length}${change.nodesReplaced.length > 0 ? ` (${some(change.nodesReplaced.map((n) => `${n.instanceType} -> ${n.by.instanceType}`))})` : ""}.`,
    "",
    ...laid(changeNamespaceRows(change), [1, 2, 3]),
    "",
    ...laid(predictedRows(change), [1, 2, 3]),
  ];
}

export function renderSavingsTable(report: SavingsJson, change?: ChangeJson): string {
  const { now, converged } = report;
  const lines = [
    `Savings report: ${report.source}, ${report.region}, at ${report.at}`,
    `Simulated with ${report.model}.`,
    `Prices: ${report.prices.region} as of ${report.prices.asOf}; spot: ${report.prices.spot}. Estimates, not a bill.`,
    "",
    ...laid(summaryRows(report), [1, 2, 3]),
    "",
    ...laid(baseRows(report), [1, 2]),
  ];
  if (converged.actions.length > 0) {
    lines.push("", ...laid(actionRows(report), [0, 4]));
  } else lines.push("", "Karpenter's consolidation has nothing to do: the cluster has settled.");
  if (converged.blockers.length > 0) {
    lines.push(
      "",
      ...columns(
        ["node that stays", "why (Karpenter's event and words)"],
        new Set(),
        converged.blockers.map((b) => [b.node, b.event === null ? b.reason : `${b.event}: ${b.reason}`]),
      ),
    );
  }
  if (now.unpriced.length > 0) {
    lines.push("", ...laid(unpricedRows(report, "node not priced"), []));
  }
  lines.push(...usageLines(report), ...rightsizingLines(report), ...moveLines(report));
  for (const note of noteLines(report)) lines.push("", note);
  if (change !== undefined) lines.push(...changeLines(change));
  return `${lines.join("\n")}\n`;
}
