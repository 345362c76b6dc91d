import { HOURS_PER_MONTH } from "../planner/plan/plan-types";
import { columns } from "../shared/text-columns";
import type { ChangeJson } from "./compare-snapshots";
import type { NodeJson, SavingsJson } from "./savings-report";

// The savings report for a terminal. Its warnings go to stderr, where they stay in sight when it is piped.

const usd = (v: number) => `$${v.toFixed(4)}`;
const usdMonth = (v: number) => `$${v.toFixed(2)}`;
const node = (n: NodeJson) => `${n.name} (${n.instanceType}, ${n.capacityType}${n.zone === null ? "" : `, ${n.zone}`})`;

const workloads = (n: number) => `${n} workload${n === 1 ? "" : "s"}`;

/** At most `n` names, then how many more. */
const some = (names: readonly string[], n = 5) => (names.length <= n ? names.join(", ") : `${names.slice(0, n).join(", ")} and ${names.length - n} more`);

/** Who uses what the cluster costs: the namespaces, what no pod requests, and the costliest workloads. */
function usageLines(report: SavingsJson): string[] {
  const { now } = report;
  if (now.byNamespace.length === 0) return [];
  return [
    "",
    ...columns(["namespace", "$/hour", "$/month"], new Set([1, 2]), [
      ...now.byNamespace.map((n) => [n.namespace, usd(n.hourlyUsd), usdMonth(n.hourlyUsd * HOURS_PER_MONTH)]),
      ["(idle: requested by no pod)", usd(now.idleHourlyUsd), usdMonth(now.idleHourlyUsd * HOURS_PER_MONTH)],
    ]),
    "",
    ...columns(
      ["costliest workloads", "$/hour"],
      new Set([1]),
      now.byWorkload.slice(0, 10).map((w) => [`${w.namespace}/${w.workload}`, usd(w.hourlyUsd)]),
    ),
  ];
}

/** What Graviton and spot would save, each against a fresh start on the NodePools as they are. */
function moveLines(report: SavingsJson): string[] {
  const { baseline, moves, notes } = report.moves;
  if (baseline.podCount === 0) return ["", "No pods on Karpenter's nodes to re-plan: the moves are not priced."];
  const lines = [
    "",
    ...columns(["what-if", "nodes", "$/hour", "$/month", "saves $/month"], new Set([1, 2, 3, 4]), [
      [`fresh start (${baseline.pools})`, baseline.nodeCount, usd(baseline.hourlyUsd), usdMonth(baseline.monthlyUsd), "-"],
      ...moves.map((m) => [m.name, m.nodeCount, usd(m.hourlyUsd), usdMonth(m.monthlyUsd), usdMonth(m.savingMonthlyUsd)]),
    ]),
  ];
  for (const m of moves) {
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
  return [...lines, ...notes.map((n) => `Note: ${n}.`)];
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
    ...columns(
      ["namespace", "before $/hour", "now $/hour", "change"],
      new Set([1, 2, 3]),
      change.byNamespace.map((n) => [n.namespace, usd(n.beforeHourlyUsd), usd(n.nowHourlyUsd), usd(n.changeHourlyUsd)]),
    ),
    "",
    ...columns(
      ["the snapshot predicted", "predicted $/hour", "measured $/hour", "difference"],
      new Set([1, 2, 3]),
      change.predicted.map((p) => [p.what, usd(p.predictedHourlyUsd), usd(p.measuredHourlyUsd), usd(p.differenceHourlyUsd)]),
    ),
  ];
}

export function renderSavingsTable(report: SavingsJson, change?: ChangeJson): string {
  const { now, converged } = report;
  const lines = [
    `Savings report: ${report.source}, ${report.region}, at ${report.at}`,
    `Simulated with ${report.model}.`,
    `Prices: ${report.prices.region} as of ${report.prices.asOf}; spot: ${report.prices.spot}. Estimates, not a bill.`,
    "",
    ...columns(["", "nodes", "$/hour", "$/month"], new Set([1, 2, 3]), [
      ["now", now.nodeCount, usd(now.hourlyUsd), usdMonth(now.monthlyUsd)],
      ["converged", converged.nodeCount, usd(converged.hourlyUsd), usdMonth(converged.monthlyUsd)],
      ["saving", now.nodeCount - converged.nodeCount, usd(report.savingHourlyUsd), usdMonth(report.savingMonthlyUsd)],
    ]),
  ];
  if (converged.actions.length > 0) {
    lines.push(
      "",
      ...columns(
        ["#", "consolidation", "nodes", "replaced by", "saves $/hour"],
        new Set([0, 4]),
        converged.actions.map((a, i) => [
          i + 1,
          `${a.method} ${a.kind}`,
          a.nodes.join(", "),
          a.replacement === null ? "-" : node(a.replacement),
          usd(a.savingHourlyUsd),
        ]),
      ),
    );
  } else lines.push("", "Karpenter's consolidation has nothing to do: the cluster has settled.");
  if (converged.blockers.length > 0) {
    lines.push(
      "",
      ...columns(
        ["node that stays", "why (Karpenter's words)"],
        new Set(),
        converged.blockers.map((b) => [b.node, `${b.event}: ${b.reason}`]),
      ),
    );
  }
  if (now.unpriced.length > 0) {
    lines.push(
      "",
      ...columns(
        ["node not priced", "instance type", "why"],
        new Set(),
        now.unpriced.map((u) => [u.node, u.instanceType, u.reason]),
      ),
    );
  }
  lines.push(...usageLines(report), ...moveLines(report));
  if (report.fargate.podCount > 0) lines.push("", `${report.fargate.podCount} Fargate pods, ${usd(report.fargate.hourlyUsd)}/hour: ${report.fargate.note}.`);
  if (report.pending.length > 0) lines.push("", `Pending (bound to no node): ${report.pending.map((p) => `${p.workload} (${p.count})`).join(", ")}.`);
  if (report.unread.length > 0) lines.push("", `Not read: ${report.unread.map((u) => `${u.kind} (${u.reason})`).join(", ")}.`);
  if (change !== undefined) lines.push(...changeLines(change));
  return `${lines.join("\n")}\n`;
}
