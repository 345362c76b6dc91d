import { HOURS_PER_MONTH } from "../planner/plan/plan-types";
import { REQUEST_CHANGE_HEADER, requestChangeRows } from "../usage/request-changes";
import type { ChangeJson } from "./compare-snapshots";
import type { NodeJson, SavingsJson } from "./savings-report";

// The rows both savings renderers (terminal table, Markdown) show, made once so the two cannot disagree: each a
// header and its rows of text; the renderers only lay them out.

export const usd = (v: number) => `$${v.toFixed(4)}`;
export const usdMonth = (v: number) => `$${v.toFixed(2)}`;
const node = (n: NodeJson) => `${n.name} (${n.instanceType}, ${n.capacityType}${n.zone === null ? "" : `, ${n.zone}`})`;

export interface Rows {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** Now, converged, and the saving between them. */
export function summaryRows(report: SavingsJson): Rows {
  const { now, converged } = report;
  return {
    header: ["", "nodes", "$/hour", "$/month"],
    rows: [
      ["now", String(now.nodeCount), usd(now.hourlyUsd), usdMonth(now.monthlyUsd)],
      ["converged", String(converged.nodeCount), usd(converged.hourlyUsd), usdMonth(converged.monthlyUsd)],
      ["saving", String(now.nodeCount - converged.nodeCount), usd(report.savingHourlyUsd), usdMonth(report.savingMonthlyUsd)],
    ],
  };
}

/** What the cluster costs whatever runs on it (the control plane): in no figure of the summary, the same in each. */
export function baseRows(report: SavingsJson): Rows {
  return {
    header: ["base: the same whatever runs, not in the figures above", "$/hour", "$/month"],
    rows: report.base.items.map((i) => [i.what, usd(i.hourlyUsd), usdMonth(i.hourlyUsd * HOURS_PER_MONTH)]),
  };
}

/** Each consolidation command, in order. */
export function actionRows(report: SavingsJson): Rows {
  return {
    header: ["#", "consolidation", "nodes", "replaced by", "saves $/hour"],
    rows: report.converged.actions.map((a, i) => [
      String(i + 1),
      `${a.method} ${a.kind}`,
      a.nodes.join(", "),
      a.replacement === null ? "-" : node(a.replacement),
      usd(a.savingHourlyUsd),
    ]),
  };
}

/** The nodes not priced, and why. */
export function unpricedRows(report: SavingsJson, first: string): Rows {
  return { header: [first, "instance type", "why"], rows: report.now.unpriced.map((u) => [u.node, u.instanceType, u.reason]) };
}

/** The namespaces by cost, then what no pod requests: together they add up to the cost now. */
export function namespaceRows(report: SavingsJson): Rows {
  const { now } = report;
  return {
    header: ["namespace", "$/hour", "$/month"],
    rows: [
      ...now.byNamespace.map((n) => [
        n.hourlyUsd === 0 ? `${n.namespace} (its pods request no CPU or memory)` : n.namespace,
        usd(n.hourlyUsd),
        usdMonth(n.hourlyUsd * HOURS_PER_MONTH),
      ]),
      ["(idle: requested by no pod)", usd(now.idleHourlyUsd), usdMonth(now.idleHourlyUsd * HOURS_PER_MONTH)],
    ],
  };
}

/** The ten costliest workloads. */
export function workloadRows(report: SavingsJson): Rows {
  return {
    header: ["costliest workloads", "$/hour"],
    rows: report.now.byWorkload.slice(0, 10).map((w) => [`${w.namespace}/${w.workload}`, usd(w.hourlyUsd)]),
  };
}

/** The fresh start, then each move, with what it saves against the fresh start. */
export function moveRows(report: SavingsJson): Rows {
  const { freshStart, moves } = report;
  return {
    header: ["what-if", "nodes", "$/hour", "$/month", "saves $/month", "vs now $/month"],
    rows: [
      [
        `fresh start (${freshStart.pools})`,
        String(freshStart.nodeCount),
        usd(freshStart.hourlyUsd),
        usdMonth(freshStart.monthlyUsd),
        "-",
        usdMonth(report.now.monthlyUsd - freshStart.monthlyUsd),
      ],
      ...moves.map((m) => [
        m.priced ? m.name : `${m.name} (spot at the on-demand rate)`,
        String(m.nodeCount),
        usd(m.hourlyUsd),
        usdMonth(m.monthlyUsd),
        usdMonth(m.savingMonthlyUsd),
        usdMonth(m.savingVsNowMonthlyUsd),
      ]),
    ],
  };
}

/** Each namespace's cost in the snapshot and now. */
export function changeNamespaceRows(change: ChangeJson): Rows {
  return {
    header: ["namespace", "before $/hour", "now $/hour", "change"],
    rows: change.byNamespace.map((n) => [n.namespace, usd(n.beforeHourlyUsd), usd(n.nowHourlyUsd), usd(n.changeHourlyUsd)]),
  };
}

/** What the snapshot predicted against what runs now. */
export function predictedRows(change: ChangeJson): Rows {
  return {
    header: ["the snapshot predicted", "predicted $/hour", "measured $/hour", "difference"],
    rows: change.predicted.map((p) => [p.what, usd(p.predictedHourlyUsd), usd(p.measuredHourlyUsd), usd(p.differenceHourlyUsd)]),
  };
}

/** A pending workload's pods, and what Karpenter's provisioner would do with them next. */
function pendingWords(p: SavingsJson["pending"][number]): string {
  const what =
    p.outcome === "launches"
      ? `a new ${p.instanceType} of NodePool ${p.nodePool}`
      : p.outcome === "fits"
        ? "room on a node that runs"
        : p.outcome === "unschedulable"
          ? `no node: ${p.reason}`
          : `Karpenter ignores them: ${p.reason}`;
  return `${p.workload} (${p.count}): ${what}`;
}

/** The report's closing notes: the Fargate pods, what is pending, what was not read. */
export function noteLines(report: SavingsJson): string[] {
  return [
    ...(report.fargate.podCount > 0 ? [`${report.fargate.podCount} Fargate pods, ${usd(report.fargate.hourlyUsd)}/hour: ${report.fargate.note}.`] : []),
    ...(report.pending.length > 0 ? [`Pending (bound to no node): ${report.pending.map(pendingWords).join("; ")}.`] : []),
    ...(report.unread.length > 0 ? [`Not read: ${report.unread.map((u) => `${u.kind} (${u.reason})`).join(", ")}.`] : []),
  ];
}

/** How many right-sized containers the renderers list: the report's JSON holds them all. */
export const RIGHTSIZING_SHOWN = 15;

/** The containers to right-size, under-requested first, then by what their workload's over-requests hold idle. */
export function rightsizingRows(report: SavingsJson): Rows {
  const rows = requestChangeRows(report.rightsizing?.workloads ?? [], (w) => [usd(w.idleHourlyUsd)]);
  return { header: [...REQUEST_CHANGE_HEADER, "idle $/hour (workload)"], rows: rows.slice(0, RIGHTSIZING_SHOWN) };
}
