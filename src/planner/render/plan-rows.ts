import { plural } from "../../shared/plural";
import { HOURS_PER_MONTH, type Plan, type ScenarioDetail, type ScenarioJson } from "../plan/plan-types";
import type { PlannedNode } from "../simulation/launch";

// The rows both human renderers (Markdown, terminal table) show, computed once so they cannot disagree.

export const usdHour = (v: number) => v.toFixed(4);
export const usdMonth = (v: number) => v.toFixed(2);
const percent = (part: number, whole: number) => (whole === 0 ? "-" : `${Math.round((100 * part) / whole)}%`);

export interface ScenarioRow {
  readonly name: string;
  readonly nodes: string;
  readonly hourly: string;
  readonly monthly: string;
  /** Once consolidation has settled the nodes: what the scenario costs to run, and on how many nodes. */
  readonly settledMonthly: string;
  readonly settledNodes: string;
  readonly saving: string;
  readonly cpu: string;
  readonly memory: string;
  readonly unschedulable: string;
}

/** "3 × c6g.large (spot)" per type and capacity type, largest count first. */
export function nodeSummary(nodes: readonly PlannedNode[]): string {
  const counts = new Map<string, number>();
  for (const n of nodes) {
    const key = `${n.type.name} (${n.capacityType})`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  if (counts.size === 0) return "none";
  return [...counts.entries()]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([key, n]) => `${n} × ${key}`)
    .join(", ");
}

export function scenarioRows(plan: Plan): ScenarioRow[] {
  const reference = plan.json.scenarios[0];
  return plan.json.scenarios.map((s: ScenarioJson, i) => {
    const d = plan.details[i] as ScenarioDetail;
    // autoscaled-max and jobs-burst are more load, not another configuration: no saving to compare. A saving is
    // what users pay less: settled against settled.
    const before = reference.converged.hourlyUsd;
    const comparable = i > 0 && s.name !== "autoscaled-max" && s.name !== "jobs-burst" && before !== 0;
    const saving = comparable ? `${(((before - s.converged.hourlyUsd) / before) * 100).toFixed(1)}%` : "-";
    return {
      name: s.name,
      nodes: `${s.nodeCount}: ${nodeSummary(d.nodes)}`,
      hourly: usdHour(s.hourlyUsd),
      monthly: usdMonth(s.monthlyUsd),
      settledMonthly: usdMonth(s.converged.monthlyUsd),
      settledNodes: String(s.converged.nodeCount),
      saving,
      cpu: percent(d.cpuRequested, d.cpuAllocatable),
      memory: percent(d.memoryRequested, d.memoryAllocatable),
      unschedulable: String(d.podsUnschedulable),
    };
  });
}

export interface NodeRow {
  readonly scenario: string;
  readonly pool: string;
  readonly instanceType: string;
  readonly capacityType: string;
  readonly arch: string;
  readonly zone: string;
  readonly count: number;
  readonly podsPerNode: number;
  readonly cpu: string;
  readonly memory: string;
  readonly hourlyEach: string;
}

/** Identical nodes (same pool, offering and pods) collapsed into one row with a count. */
export function nodeRows(plan: Plan): NodeRow[] {
  const rows: NodeRow[] = [];
  for (const d of plan.details) {
    const groups = new Map<string, { node: PlannedNode; count: number }>();
    for (const n of d.nodes) {
      const key = [n.pool, n.type.name, n.capacityType, n.zone, n.pods, n.cpuRequested, n.memoryRequested].join("|");
      const g = groups.get(key);
      if (g === undefined) groups.set(key, { node: n, count: 1 });
      else g.count++;
    }
    for (const { node: n, count } of groups.values()) {
      rows.push({
        scenario: d.name,
        pool: n.pool,
        instanceType: n.type.name,
        capacityType: n.priceIsUpperBound ? `${n.capacityType} (on-demand price, upper bound)` : n.capacityType,
        arch: n.type.arch,
        zone: n.zone ?? "any",
        count,
        podsPerNode: n.pods,
        cpu: percent(n.cpuRequested, n.cpuAllocatable),
        memory: percent(n.memoryRequested, n.memoryAllocatable),
        hourlyEach: usdHour(n.hourlyUsd),
      });
    }
  }
  return rows;
}

/**
 * "14 pods: 12 on Karpenter nodes, 0 on Fargate, 2 unschedulable": the steady state's pods as the as-configured
 * plan places them, with those bound to named nodes, and the Jobs' apart, each part only when there are such pods.
 */
export function podCounts(plan: Plan): string {
  const w = plan.workload;
  const parts = [`${w.nodePods} on Karpenter nodes`, `${w.fargatePods} on Fargate`];
  if ((w.unschedulablePods ?? 0) > 0) parts.push(`${w.unschedulablePods} unschedulable`);
  if ((w.boundPods ?? 0) > 0) parts.push(`${w.boundPods} bound to named nodes`);
  const jobs = (w.jobPods ?? 0) > 0 ? `; Jobs and CronJobs add ${w.jobPods} while they run (jobs-burst)` : "";
  return `${plural(w.pods, "pod")}: ${parts.join(", ")}${jobs}`;
}

/**
 * Each workload's unschedulable pods once, with the scenarios it fails in and why: "default/web: 3 pods in
 * as-configured, on-demand-only: <reason>; 5 pods in autoscaled-max: <reason>".
 */
export function unschedulableLines(plan: Plan): string[] {
  const byGroup = new Map<string, Map<string, { readonly count: number; readonly reason: string; readonly scenarios: string[] }>>();
  for (const d of plan.details) {
    for (const u of d.unschedulable) {
      const cases = byGroup.get(u.id) ?? new Map();
      const key = JSON.stringify([u.count, u.reason]);
      const seen = cases.get(key);
      if (seen === undefined) cases.set(key, { count: u.count, reason: u.reason, scenarios: [d.name] });
      else seen.scenarios.push(d.name);
      byGroup.set(u.id, cases);
    }
  }
  return [...byGroup.entries()].map(
    ([id, cases]) => `${id}: ${[...cases.values()].map((c) => `${plural(c.count, "pod")} in ${c.scenarios.join(", ")}: ${c.reason}`).join("; ")}`,
  );
}

/** "this cluster costs $X/month before any workload, and $Y with it": the workload is its nodes and its Fargate pods. */
export function costSentence(plan: Plan): string {
  const base = plan.json.base.hourlyUsd * HOURS_PER_MONTH;
  const fargate = plan.json.fargateWorkload.hourlyUsd * HOURS_PER_MONTH;
  const total = base + fargate + plan.json.scenarios[0].monthlyUsd;
  const onFargate = fargate > 0 ? `, $${usdMonth(fargate)} of it on Fargate` : "";
  return `This cluster costs $${usdMonth(base)}/month before any workload, and $${usdMonth(total)}/month with it (as configured${onFargate}).`;
}

export function floorSentence(plan: Plan): string {
  const floor = plan.json.floorHourlyUsd;
  const asConfigured = plan.json.scenarios[0].hourlyUsd;
  const ratio = floor > 0 ? ` The as-configured plan is ${(asConfigured / floor).toFixed(2)}× the floor.` : "";
  return `Floor: $${usdHour(floor)}/hour ($${usdMonth(floor * HOURS_PER_MONTH)}/month), the pods' requests bought at the cheapest $/vCPU and $/GiB of the allowed types, with no node overhead or packing loss.${ratio}`;
}

/** autoscaled-max once the autoscalers are back at their minimum, settled, beside as-configured settled; undefined without it. */
export function afterScaleDownSentence(plan: Plan): string | undefined {
  const max = plan.json.scenarios.find((s) => s.afterScaleDown !== undefined);
  if (max?.afterScaleDown === undefined) return undefined;
  const after = max.afterScaleDown;
  const steady = plan.json.scenarios[0].converged;
  return `Once the autoscalers are back at their minimum, consolidation settles autoscaled-max's nodes at $${usdMonth(after.monthlyUsd)}/month on ${after.nodeCount} nodes (as-configured settles at $${usdMonth(steady.monthlyUsd)}/month on ${steady.nodeCount}).`;
}
