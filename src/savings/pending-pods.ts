import type { InstanceCatalogue } from "../instance-catalogue/instance-catalogue";
import { roundUsd } from "../planner/plan/plan-types";
import { provision } from "../planner/simulation/provisioner";
import type { ClusterState } from "../planner/state/cluster-state";
import { provisionablePending, stateSimulation } from "../planner/state/settle-state";
import { workloadName } from "../planner/workload/workload-name";
import { plural } from "../shared/plural";

// The cluster's pending pods, as Karpenter's provisioner would take them next: those it ignores and why, those a
// running node can take, those that need a new node (its NodePool, type and price), and those no NodePool can
// take. A pending pod Karpenter can place is in every consolidation simulation: a NodeClaim it needs turns a
// delete into a replace that is rarely cheaper, so while it waits consolidation may move nothing; one no NodePool
// can take does not hold consolidation back.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/provisioner.go (GetPendingPods, Schedule)

export interface PendingJson {
  readonly workload: string;
  readonly count: number;
  /** launches: a new node; fits: a node that runs; unschedulable: no NodePool can take it; ignored: not Karpenter's to provision. */
  readonly outcome: "launches" | "fits" | "unschedulable" | "ignored";
  readonly reason?: string;
  readonly nodePool?: string;
  readonly instanceType?: string;
  /** What the node it launches costs an hour (shared by the pods it holds). */
  readonly hourlyUsd?: number;
}

export interface PendingOutlook {
  readonly pods: readonly PendingJson[];
  /** The nodes the provisioner would launch for them. */
  readonly launches: readonly { readonly nodePool: string; readonly instanceType: string; readonly hourlyUsd: number; readonly pods: number }[];
}

export function pendingOutlook(state: ClusterState, catalogue: InstanceCatalogue): PendingOutlook {
  const ignored: PendingJson[] = state.pending
    .filter((p) => p.ignored !== undefined)
    .map((p) => ({ workload: workloadName(p.group), count: p.count, outcome: "ignored", reason: p.ignored }));
  const waiting = provisionablePending(state);
  if (waiting.length === 0) return { pods: ignored, launches: [] };
  const simulation = stateSimulation(state, catalogue);
  const groups = waiting.map((p) => ({ ...p.group, replicas: p.count }));
  const result = provision(simulation, { groups, existingNodes: state.nodes.map((n) => n.state) });
  const byId = new Map(groups.map((g) => [g.id, g]));
  const pods: PendingJson[] = [];
  for (const node of result.nodes) {
    for (const { id, count } of node.groups) {
      const group = byId.get(id);
      if (group === undefined) continue;
      pods.push({
        workload: workloadName(group),
        count,
        outcome: "launches",
        nodePool: node.pool,
        instanceType: node.type.name,
        hourlyUsd: roundUsd(node.hourlyUsd),
      });
    }
  }
  const onRunning = new Map<string, number>();
  for (const node of result.existingNodes)
    for (const { group, count } of node.pods) if (byId.get(group.id) === group) onRunning.set(group.id, (onRunning.get(group.id) ?? 0) + count);
  for (const [id, count] of onRunning) pods.push({ workload: workloadName(byId.get(id) ?? groups[0]), count, outcome: "fits" });
  for (const u of result.unschedulable)
    pods.push({ workload: workloadName(byId.get(u.id) ?? groups[0]), count: u.count, outcome: "unschedulable", reason: u.reason });
  return {
    pods: [...pods, ...ignored],
    launches: result.nodes.map((n) => ({ nodePool: n.pool, instanceType: n.type.name, hourlyUsd: roundUsd(n.hourlyUsd), pods: n.pods })),
  };
}

/** The report's sentence when pending pods Karpenter could place hold consolidation still. */
export function holdingSentence(outlook: PendingOutlook): string {
  const placed = outlook.pods.filter((p) => p.outcome === "launches").reduce((sum, p) => sum + p.count, 0);
  const nodes = outlook.launches.map((l) => `${l.nodePool}, ${l.instanceType} at $${l.hourlyUsd.toFixed(4)}/hour`);
  return `${plural(placed, "pending pod")} that Karpenter could place (${nodes.join("; ")}): while they wait, consolidation moves nothing`;
}
