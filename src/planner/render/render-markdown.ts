import { REQUEST_CHANGE_HEADER, requestChangeRows } from "../../usage/request-changes";
import { HOURS_PER_MONTH, type Plan } from "../plan/plan-types";
import { afterScaleDownSentence, costSentence, floorSentence, nodeRows, podCounts, scenarioRows, usdHour, usdMonth } from "./plan-rows";

// The plan as a pull-request comment: GitHub renders the tables and the Mermaid xychart-beta bar chart.
// @see https://mermaid.js.org/syntax/xyChart.html

const cell = (text: string | number) => String(text).replace(/\|/g, "\\|");
const row = (cells: readonly (string | number)[]) => `| ${cells.map(cell).join(" | ")} |`;

function table(header: readonly string[], align: readonly ("l" | "r")[], rows: readonly (readonly (string | number)[])[]): string[] {
  return [row(header), `|${align.map((a) => (a === "r" ? "---:" : "---")).join("|")}|`, ...rows.map(row)];
}

/** A y-axis top that leaves a little room above the tallest bar, on a round number. */
function axisTop(max: number): number {
  if (max <= 0) return 1;
  const step = 10 ** Math.floor(Math.log10(max));
  return Math.ceil((max * 1.1) / step) * step;
}

export function chart(plan: Plan): string[] {
  const names = plan.json.scenarios.map((s) => `"${s.name}"`);
  const values = plan.json.scenarios.map((s) => s.monthlyUsd);
  const settled = plan.json.scenarios.map((s) => s.converged.monthlyUsd);
  return [
    "```mermaid",
    "xychart-beta",
    '    title "Node cost per month by scenario: as launched, then settled (USD, base costs not included)"',
    `    x-axis [${names.join(", ")}]`,
    `    y-axis "USD per month" 0 --> ${axisTop(Math.max(...values))}`,
    `    bar [${values.map((v) => v.toFixed(2)).join(", ")}]`,
    `    bar [${settled.map((v) => v.toFixed(2)).join(", ")}]`,
    "```",
  ];
}

/** The Markdown plan; `npm run review` includes it when a workload is given. */
export function renderPlanMarkdown(plan: Plan): string {
  const { json } = plan;
  const lines: string[] = [
    `## Capacity and cost plan: ${plan.workload.source} on ${plan.cluster.name} (${plan.cluster.region})`,
    "",
    `${podCounts(plan)}. Config: ${plan.cluster.configSource}.`,
    `Instance prices: ${json.prices.source} (${json.prices.region}, as of ${json.prices.asOf}). Fixed prices: ${plan.listPrices.source}.`,
    "These are estimates from list prices and a simulation of Karpenter's packing, not a quote.",
    "",
    ...table(
      [
        "scenario",
        "nodes",
        "$/hour",
        "$/month",
        "settled $/month",
        "settled nodes",
        "saving vs as-configured (settled)",
        "CPU requested",
        "memory requested",
        "unschedulable pods",
      ],
      ["l", "l", "r", "r", "r", "r", "r", "r", "r", "r"],
      scenarioRows(plan).map((r) => [r.name, r.nodes, r.hourly, r.monthly, r.settledMonthly, r.settledNodes, r.saving, r.cpu, r.memory, r.unschedulable]),
    ),
    "",
    "Settled: the same nodes once Karpenter's consolidation has run, what the scenario costs to run (docs/planner.md, Consolidation).",
    ...(afterScaleDownSentence(plan) === undefined ? [] : ["", afterScaleDownSentence(plan) as string]),
    "",
    floorSentence(plan),
    "",
    ...chart(plan),
    "",
    "### What the design itself costs",
    "",
    ...table(
      ["item", "$/hour", "$/month"],
      ["l", "r", "r"],
      [
        ...json.base.items.map((i) => [i.what, usdHour(i.hourlyUsd), usdMonth(i.hourlyUsd * HOURS_PER_MONTH)]),
        ["**base**", `**${usdHour(json.base.hourlyUsd)}**`, `**${usdMonth(json.base.hourlyUsd * HOURS_PER_MONTH)}**`],
      ],
    ),
    ...(json.fargateWorkload.items.length === 0
      ? []
      : [
          "",
          "### The workload on Fargate",
          "",
          ...table(
            ["item", "$/hour", "$/month"],
            ["l", "r", "r"],
            json.fargateWorkload.items.map((i) => [i.what, usdHour(i.hourlyUsd), usdMonth(i.hourlyUsd * HOURS_PER_MONTH)]),
          ),
        ]),
    "",
    costSentence(plan),
    "",
    "### Nodes",
    "",
    ...table(
      ["scenario", "pool", "instance type", "capacity type", "arch", "zone", "nodes", "pods per node", "CPU", "memory", "$/hour each"],
      ["l", "l", "l", "l", "l", "l", "r", "r", "r", "r", "r"],
      nodeRows(plan).map((r) => [r.scenario, r.pool, r.instanceType, r.capacityType, r.arch, r.zone, r.count, r.podsPerNode, r.cpu, r.memory, r.hourlyEach]),
    ),
  ];
  const unschedulable = json.scenarios.flatMap((s) => s.unschedulable.map((u) => [s.name, u.pod, u.reason]));
  if (unschedulable.length > 0) lines.push("", "### Unschedulable", "", ...table(["scenario", "pod", "reason"], ["l", "l", "l"], unschedulable));
  if (json.daemonSets.length > 0) {
    lines.push(
      "",
      "### DaemonSets (on every node they run on)",
      "",
      ...table(
        ["DaemonSet", "CPU per node", "memory per node", "as-configured nodes"],
        ["l", "r", "r", "r"],
        json.daemonSets.map((d) => [d.id, `${d.cpuMillis}m`, `${Math.round(d.memoryBytes / 1024 / 1024)} MiB`, d.nodes]),
      ),
    );
  }
  const sizing = json.rightsizing;
  if (sizing !== undefined) {
    const changes = requestChangeRows(sizing.workloads);
    const method = `CPU p${sizing.method.cpuPercentile} of its 5-minute rate, memory peak + ${Math.round((sizing.method.memoryBuffer - 1) * 100)}%, over ${sizing.window}, from ${sizing.source}`;
    lines.push(
      "",
      "### Requests from usage (the rightsized scenario)",
      "",
      ...(changes.length === 0
        ? [`Every container's requests match its usage (${method}).`]
        : [`${method}:`, "", ...table(REQUEST_CHANGE_HEADER, ["l", "l", "r", "r", "r"], changes)]),
    );
  }
  if (json.warnings.length > 0) lines.push("", "### Warnings", "", ...json.warnings.map((w) => `- ${w}`));
  return `${lines.join("\n")}\n`;
}
