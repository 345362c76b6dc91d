import type { PoolDisruption } from "../model";
import type { NodeClaimIds } from "../simulation/node-claim-ids";
import type { NodeClaimTemplate } from "../simulation/node-claim-template";
import type { PodData } from "../simulation/pod-data";
import type { FitCache } from "../simulation/pod-fit";
import { byCpuAndMemoryDescending, type QueuedPods } from "../simulation/queue";
import { type Results, Scheduler } from "../simulation/scheduler";
import type { Topology } from "../simulation/topology";
import type { DaemonSetShape, PodGroup } from "../workload/workload-model";
import type { Candidate } from "./candidates";
import type { ClusterNode } from "./cluster-node";

// What would become of the candidates' pods: the provisioning scheduler, run on the nodes that stay (every node but
// the candidates and those already being deleted, of any NodePool or none), with new NodeClaims from the NodePools
// where the pods fit nowhere. The pods of nodes already being deleted are rescheduled too.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/helpers.go (SimulateScheduling)
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/scheduler.go (Results.AllNonPendingPodsScheduled)

/** What the disruption controller works with across its passes. */
export interface DisruptionContext {
  /** The NodePools as the scheduler opens NodeClaims from them, in Karpenter's order. */
  readonly templates: readonly NodeClaimTemplate[];
  readonly daemonSets: readonly DaemonSetShape[];
  readonly fits: FitCache;
  /** Knows every pod group the cluster runs. */
  readonly topology: Topology;
  readonly podData: (group: PodGroup) => PodData;
  readonly region: string;
  readonly zonesKnown: boolean;
  readonly spotKnown: boolean;
  /** Karpenter's SpotToSpotConsolidation feature gate: off by default. */
  readonly spotToSpot: boolean;
  /** Whether the instance catalogue knows a type: consolidation leaves a node of an unknown type alone. */
  readonly typeKnown: (name: string) => boolean;
  /** Each NodePool's disruption settings, by name: a replacement is its pool's node. */
  readonly pools: ReadonlyMap<string, PoolDisruption>;
  /** Numbers the NodeClaims of every simulation on from those the launch opened: a hostname is never used twice. */
  readonly nodeClaimIds: NodeClaimIds;
  /** Counts the nodes consolidation launched, to name them. */
  launched: number;
}

export interface SimulationResults {
  readonly results: Results;
  /** Empty when every pod of the candidates found a node or a new NodeClaim. */
  readonly unscheduled: readonly { readonly pod: string; readonly reason: string }[];
}

/** The candidates' pods, by group, in the scheduler's queue order. */
function podsOf(nodes: readonly ClusterNode[], ctx: DisruptionContext): QueuedPods[] {
  const counts = new Map<PodData, number>();
  for (const node of nodes) for (const { group, count } of node.state.pods) counts.set(ctx.podData(group), (counts.get(ctx.podData(group)) ?? 0) + count);
  return byCpuAndMemoryDescending([...counts.keys()]).map((pod) => ({ pod, count: counts.get(pod) ?? 0 }));
}

/** Reschedules the candidates' pods (and those of nodes already deleting) onto the rest of the cluster. */
export function simulateScheduling(ctx: DisruptionContext, nodes: readonly ClusterNode[], candidates: readonly Candidate[]): SimulationResults {
  const leaving = new Set(candidates.map((c) => c.node));
  const moving = nodes.filter((n) => leaving.has(n) || n.deleting);
  const staying = nodes.filter((n) => !leaving.has(n) && !n.deleting);
  const scheduler = new Scheduler({
    templates: ctx.templates,
    existingNodes: staying.map((n) => n.state),
    daemonSets: ctx.daemonSets,
    topology: ctx.topology,
    fits: ctx.fits,
    nodeClaimIds: ctx.nodeClaimIds,
  });
  const results = scheduler.solve(podsOf(moving, ctx));
  return {
    results,
    unscheduled: results.pending.map((p) => ({
      pod: `${p.pod.group.namespace}/${p.pod.group.disruption?.examplePod ?? p.pod.group.name}`,
      reason: p.reason ?? "not planned",
    })),
  };
}

/** Karpenter's words for pods that would not schedule (Results.NonPendingPodSchedulingErrors, as a sentence). */
export function notAllPodsWouldSchedule(unscheduled: SimulationResults["unscheduled"]): string {
  const shown = unscheduled.slice(0, 5).map((u) => `${u.pod} => ${u.reason}`);
  const more = unscheduled.length > 5 ? ` and ${unscheduled.length - 5} other(s)` : "";
  return `Not all pods would schedule, ${shown.join(" ")}${more}`;
}
