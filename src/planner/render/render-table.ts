import { columns } from "../../shared/text-columns";
import { HOURS_PER_MONTH, type Plan } from "../plan/plan-types";
import { afterScaleDownSentence, costSentence, floorSentence, nodeRows, podCounts, scenarioRows, unschedulableLines, usdHour, usdMonth } from "./plan-rows";

/** What "settled" means, and autoscaled-max after the scale-down. */
function settledLines(plan: Plan): string[] {
  const after = afterScaleDownSentence(plan);
  return [
    "settled: the same nodes once Karpenter's consolidation has run (docs/planner.md); saving compares settled costs.",
    ...(after === undefined ? [] : [after]),
  ];
}

// The plan for a terminal: aligned plain-text columns, no Markdown. Its warnings are not part of it: the CLI
// prints them on stderr (tableWarnings), where they stay in sight when the table is piped or redirected.

export function renderPlanTable(plan: Plan): string {
  const { json } = plan;
  const lines = [
    `Capacity and cost plan: ${plan.workload.source} on ${plan.cluster.name} (${plan.cluster.region}), config: ${plan.cluster.configSource}`,
    podCounts(plan),
    `Instance prices: ${json.prices.region}, as of ${json.prices.asOf}; fixed prices as of ${plan.listPrices.asOf}. Estimates, not a quote.`,
    "",
    ...columns(
      ["scenario", "$/hour", "$/month", "settled $/month", "settled nodes", "saving", "CPU", "memory", "unschedulable", "nodes"],
      new Set([1, 2, 3, 4, 5, 6, 7, 8]),
      scenarioRows(plan).map((r) => [r.name, r.hourly, r.monthly, r.settledMonthly, r.settledNodes, r.saving, r.cpu, r.memory, r.unschedulable, r.nodes]),
    ),
    ...settledLines(plan),
    "",
    floorSentence(plan),
    "",
    ...columns(["base (what the design costs)", "$/hour", "$/month"], new Set([1, 2]), [
      ...json.base.items.map((i) => [i.what, usdHour(i.hourlyUsd), usdMonth(i.hourlyUsd * HOURS_PER_MONTH)]),
      ["total", usdHour(json.base.hourlyUsd), usdMonth(json.base.hourlyUsd * HOURS_PER_MONTH)],
    ]),
    ...(json.fargateWorkload.items.length === 0
      ? []
      : [
          "",
          ...columns(
            ["the workload on Fargate", "$/hour", "$/month"],
            new Set([1, 2]),
            json.fargateWorkload.items.map((i) => [i.what, usdHour(i.hourlyUsd), usdMonth(i.hourlyUsd * HOURS_PER_MONTH)]),
          ),
        ]),
    costSentence(plan),
    "",
    ...columns(
      ["scenario", "pool", "instance type", "capacity", "arch", "zone", "nodes", "pods/node", "CPU", "memory", "$/hour each"],
      new Set([6, 7, 8, 9, 10]),
      nodeRows(plan).map((r) => [r.scenario, r.pool, r.instanceType, r.capacityType, r.arch, r.zone, r.count, r.podsPerNode, r.cpu, r.memory, r.hourlyEach]),
    ),
  ];
  if (json.daemonSets.length > 0) {
    lines.push(
      "",
      ...columns(
        ["DaemonSet", "CPU per node", "memory per node", "as-configured nodes"],
        new Set([1, 2, 3]),
        json.daemonSets.map((d) => [d.id, `${d.cpuMillis}m`, `${Math.round(d.memoryBytes / 1024 / 1024)} MiB`, d.nodes]),
      ),
    );
  }
  for (const line of unschedulableLines(plan)) lines.push(`unschedulable: ${line}`);
  return `${lines.join("\n")}\n`;
}

/** The plan's warnings as a terminal shows them, one line each, for stderr. */
export function tableWarnings(plan: Plan): string[] {
  return plan.json.warnings.map((w) => `warning: ${w}`);
}
