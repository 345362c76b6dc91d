import { plural } from "../../shared/plural";
import { LABEL } from "../../shared/vocabulary/well-known-labels";
import type { ClusterNode } from "../consolidation/cluster-node";
import type { ConsolidationResult } from "../consolidation/disruption-controller";
import { launchedRunning } from "../consolidation/running-node";
import { settleNodes } from "../consolidation/settle-nodes";
import type { PoolDisruption } from "../model";
import { podDisruptionBudgets } from "../workload/pod-disruption-budgets";
import type { PodGroup } from "../workload/workload-model";
import { type ConvergedJson, HOURS_PER_MONTH, type NodeJson, roundUsd, type ScenarioJson } from "./plan-types";
import type { ScenarioRun } from "./simulate";

// Where a scenario's nodes settle once Karpenter's consolidation has run: the nodes the plan launches, running,
// through the disruption controller (consolidation/) until nothing moves. What users pay for is this, not the
// launch. A plan has no clock: a budget with a schedule only delays consolidation, so the settled figure is what
// the cluster reaches outside the schedules' windows (budgets without a schedule hold all the time). The workload's
// PodDisruptionBudgets are not read by the planner, and do not hold pods here.

/** A plan's instant: budgets with a schedule are taken as not active (see above), so any fixed time serves. */
const PLAN_TIME = new Date(0);

/** The pools' disruption settings without their scheduled budgets. */
function unscheduled(pools: ReadonlyMap<string, PoolDisruption>): Map<string, PoolDisruption> {
  return new Map([...pools].map(([name, p]) => [name, { ...p, budgets: p.budgets.filter((b) => b.schedule === undefined) }]));
}

/** The scenario's launched nodes, running under the plan's disruption settings, and how nodes of it settle. */
function launched(run: ScenarioRun) {
  const simulation = { ...run.simulation, disruption: unscheduled(run.simulation.disruption) };
  return {
    nodes: launchedRunning(run.result, simulation.disruption),
    settle: (nodes: readonly ClusterNode[]): ConsolidationResult => {
      const pdbs = podDisruptionBudgets(
        run.pdbs,
        nodes.flatMap((n) => n.state.pods),
      );
      return settleNodes(simulation, { nodes, pdbs, at: PLAN_TIME, spotToSpot: false });
    },
  };
}

/** The scenario's launched nodes, settled. */
export function convergedNodes(run: ScenarioRun): ConsolidationResult {
  const { nodes, settle } = launched(run);
  return settle(nodes);
}

/**
 * autoscaled-max once the autoscalers scale back down to their minimum, settled: the replicas the scale-up added
 * go, newest nodes first (a ReplicaSet scales down its newest pods first, and the scale-up's pods are on the
 * nodes launched last), and consolidation takes it from there.
 */
export function afterScaleDown(run: ScenarioRun, groups: readonly PodGroup[]): ConsolidationResult {
  const extra = new Map(groups.map((g) => [g, Math.max(0, (g.autoscaling?.maxReplicas ?? g.replicas) - g.replicas)]));
  const { nodes, settle } = launched(run);
  const scaledDown = [...nodes].reverse().map((node) => {
    const pods = node.state.pods.flatMap(({ group, count }) => {
      const remove = Math.min(count, extra.get(group) ?? 0);
      if (remove > 0) extra.set(group, (extra.get(group) ?? 0) - remove);
      return count - remove > 0 ? [{ group, count: count - remove }] : [];
    });
    return { ...node, state: { ...node.state, pods } };
  });
  return settle(scaledDown.reverse());
}

const total = (nodes: readonly ClusterNode[]) => nodes.reduce((sum, n) => sum + (n.hourlyUsd ?? 0), 0);

function nodeJson(node: ClusterNode, heldBy?: readonly string[]): NodeJson {
  const capacityType = node.capacityType === "spot" ? "spot" : "on-demand";
  return {
    pool: node.state.labels[LABEL.nodePool] ?? "",
    instanceType: node.instanceType,
    capacityType,
    ...(node.priceIsUpperBound ? { priceIsUpperBound: true } : {}),
    arch: node.state.labels[LABEL.arch] ?? "",
    ...(node.zone === undefined ? {} : { zone: node.zone }),
    pods: node.state.pods.reduce((sum, p) => sum + p.count, 0),
    hourlyUsd: node.hourlyUsd ?? 0,
    ...(heldBy === undefined ? {} : { heldByPdbs: heldBy }),
  };
}

export function convergedJson(result: ConsolidationResult): ConvergedJson {
  const hourly = roundUsd(total(result.nodes));
  const heldBy = new Map(result.blockers.flatMap((b) => (b.blocker.pdbs === undefined ? [] : [[b.node, b.blocker.pdbs] as const])));
  return {
    nodeCount: result.nodes.length,
    hourlyUsd: hourly,
    monthlyUsd: roundUsd(hourly * HOURS_PER_MONTH, 2),
    nodes: result.nodes.map((node) => nodeJson(node, heldBy.get(node))),
    actions: result.actions.map((a) => ({
      method: a.method,
      kind: a.kind,
      nodes: a.nodes.length,
      replacement: a.replacement?.instanceType ?? null,
      savingHourlyUsd: roundUsd(a.savingHourlyUsd),
    })),
  };
}

/**
 * The warning a plan needs when allowing arm64 settles dearer than amd64 alone: Karpenter packed the pods onto
 * larger nodes, and consolidation replaces several nodes by one cheaper node at most, never one by several.
 */
export function packingWarning(scenarios: readonly Pick<ScenarioJson, "name" | "converged" | "unschedulable">[]): string | undefined {
  const amd64 = scenarios.find((s) => s.name === "amd64-only");
  const multiarch = scenarios.find((s) => s.name === "multiarch");
  if (amd64 === undefined || multiarch === undefined || amd64.unschedulable.length > 0) return undefined;
  if (multiarch.converged.hourlyUsd <= amd64.converged.hourlyUsd + 1e-9) return undefined;
  const usd = (v: number) => `$${v.toFixed(4)}/hour`;
  const nodes = (n: number) => plural(n, "node");
  return `multiarch settles at ${usd(multiarch.converged.hourlyUsd)} on ${nodes(multiarch.converged.nodeCount)}, more than amd64-only's ${usd(amd64.converged.hourlyUsd)} on ${nodes(amd64.converged.nodeCount)}: with arm64 allowed Karpenter packs the pods onto larger nodes, and consolidation replaces several nodes by one cheaper node at most, never one node by several; list instanceSizes for the pool to keep nodes smaller`;
}

/** The settled nodes each PodDisruptionBudget holds, as a warning for the reader of a plan; undefined when none does. */
export function pdbHoldWarning(scenario: Pick<ScenarioJson, "name" | "converged">): string | undefined {
  const byPdb = new Map<string, string[]>();
  for (const node of scenario.converged.nodes) for (const pdb of node.heldByPdbs ?? []) byPdb.set(pdb, [...(byPdb.get(pdb) ?? []), node.instanceType]);
  if (byPdb.size === 0) return undefined;
  const held = [...byPdb.entries()].map(([pdb, types]) => `PodDisruptionBudget ${pdb} holds ${plural(types.length, "node")} (${types.join(", ")})`);
  return `${scenario.name} settles with nodes its PodDisruptionBudgets keep from consolidation (Karpenter's "Pdb prevents pod evictions"): ${held.join("; ")}`;
}
