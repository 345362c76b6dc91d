import { getOrAdd } from "../../shared/get-or-add";
import type { PodData } from "../simulation/pod-data";
import { byCpuAndMemoryDescending, type QueuedPods } from "../simulation/queue";
import { type Results, Scheduler } from "../simulation/scheduler";
import type { SimulationContext } from "../simulation/simulation-context";
import { nodePlacement } from "../simulation/state-node";
import type { PodCount, Topology } from "../simulation/topology";
import type { PodGroup } from "../workload/workload-model";
import { type Candidate, reschedulablePods } from "./candidates";
import type { ClusterNode } from "./cluster-node";

// What would become of the candidates' pods: the provisioning scheduler, run on the nodes that stay (every node but
// the candidates and those already being deleted, of any NodePool or none), with new NodeClaims from the NodePools
// where the pods fit nowhere. The pods of nodes already being deleted are rescheduled too, and the cluster's
// pending pods (those Karpenter provisions for) are scheduled with them: a pending pod that finds no node does not
// block a command, but a NodeClaim it needs is one the command needs. A candidate's pod that would land on a node
// still initializing does block it (UninitializedNodeError); a deleting node's pod may land there.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/helpers.go (SimulateScheduling)
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/scheduler.go (Results.AllNonPendingPodsScheduled)

/** What the disruption controller works with across its passes: the cluster's simulation context, and its own run. */
export interface DisruptionContext {
  /** The pools, templates, fits, zones, prices and disruption settings every simulation shares. */
  readonly simulation: SimulationContext;
  /** Knows every pod group the cluster runs. */
  readonly topology: Topology;
  readonly podData: (group: PodGroup) => PodData;
  /** Karpenter's SpotToSpotConsolidation feature gate: off by default. */
  readonly spotToSpot: boolean;
  /** Counts the nodes consolidation launched, to name them. */
  launched: number;
  /** The cluster's pods pending now, which Karpenter provisions for: scheduled in every simulation beside those moved. */
  pending: readonly PendingPods[];
  /**
   * Skip the simulations that totals already rule out (capacity-screen.ts): for a caller that reports commands only,
   * not why each node stays, since a screened candidate's refusal names no reason.
   */
  readonly screen?: boolean;
}

export interface SimulationResults {
  readonly results: Results;
  /** Empty when every pod of the candidates (and of deleting nodes) found a node or a new NodeClaim. */
  readonly unscheduled: readonly { readonly pod: string; readonly reason: string }[];
}

/** Pods the cluster holds bound to no node, which Karpenter provisions for. */
export interface PendingPods {
  readonly group: PodGroup;
  readonly count: number;
}

/**
 * The pods to schedule in the scheduler's queue order: the candidates' reschedulable pods, the deleting nodes'
 * (which may land on a node still initializing) and those pending, each kind a run of its own so that their
 * failures can be told apart.
 */
function queued(ctx: DisruptionContext, moving: readonly PodCount[], deleting: readonly PodCount[], pending: readonly PendingPods[]): QueuedPods[] {
  const counts = new Map<PodData, { moved: number; deleting: number; pending: number }>();
  const entry = (group: PodGroup) => getOrAdd(counts, ctx.podData(group), () => ({ moved: 0, deleting: 0, pending: 0 }));
  for (const { group, count } of moving) entry(group).moved += count;
  for (const { group, count } of deleting) entry(group).deleting += count;
  for (const { group, count } of pending) entry(group).pending += count;
  return byCpuAndMemoryDescending([...counts.keys()]).flatMap((pod) => {
    const n = counts.get(pod) ?? { moved: 0, deleting: 0, pending: 0 };
    return [
      ...(n.moved > 0 ? [{ pod, count: n.moved }] : []),
      ...(n.deleting > 0 ? [{ pod, count: n.deleting, fromDeleting: true as const }] : []),
      ...(n.pending > 0 ? [{ pod, count: n.pending, pending: true as const }] : []),
    ];
  });
}

/** Karpenter's words for a pod that would land on a node still initializing (UninitializedNodeError). */
const onUninitialized = (node: string) => `would schedule against uninitialized node/${node}`;

/**
 * Reschedules the candidates' pods (and those of nodes already deleting) onto the rest of the cluster, beside the
 * pending pods `pending`, if any (emptiness simulates none: it schedules nothing in Karpenter).
 */
export function simulateScheduling(
  ctx: DisruptionContext,
  nodes: readonly ClusterNode[],
  candidates: readonly Candidate[],
  pending: readonly PendingPods[] = [],
  /**
   * For a screen that asks whether a new node is needed at all: no new NodeClaim, and only the staying nodes
   * `mayTake` lets through (those with room for the smallest pod; the others could take none).
   */
  existingOnly?: { readonly mayTake: (node: ClusterNode) => boolean },
): SimulationResults {
  const leaving = new Set(candidates.map((c) => c.node));
  const deleting = nodes.filter((n) => n.deleting && !leaving.has(n));
  const moving = candidates.flatMap((c) => c.pods);
  const fromDeleting = deleting.flatMap((n) => reschedulablePods(n));
  const staying = nodes.filter((n) => !leaving.has(n) && !n.deleting && (existingOnly === undefined || existingOnly.mayTake(n)));
  // Topology counts the cluster's pods once a pass (every node but those deleting); a simulation takes out the
  // candidates' and puts them back after: the same counts a scheduler over the staying nodes would make.
  const counted = (list: readonly ClusterNode[]) => list.map((n) => ({ placement: nodePlacement(n.state), pods: n.state.pods }));
  ctx.topology.countOnce(nodes, () => counted(nodes.filter((n) => !n.deleting)));
  ctx.topology.withoutNodes(counted(candidates.map((c) => c.node).filter((n) => !n.deleting)));
  let results: Results;
  try {
    const scheduler = new Scheduler({
      templates: existingOnly === undefined ? ctx.simulation.templates : [],
      existingNodes: staying.map((n) => n.state),
      daemonSets: ctx.simulation.daemonSets,
      topology: ctx.topology,
      fits: ctx.simulation.fits,
      nodeClaimIds: ctx.simulation.nodeClaimIds,
      topologyCounted: true,
    });
    results = scheduler.solve(queued(ctx, moving, fromDeleting, pending));
  } finally {
    ctx.topology.restore();
  }
  const name = (pod: PodData) => `${pod.group.namespace}/${pod.group.disruption?.examplePod ?? pod.group.name}`;
  return {
    results,
    unscheduled: [
      ...results.pending.filter((p) => p.pending !== true).map((p) => ({ pod: name(p.pod), reason: p.reason ?? "not planned" })),
      ...[...results.onUninitialized].flatMap(([node, pods]) => pods.map((pod) => ({ pod: name(pod), reason: onUninitialized(node.name) }))),
    ],
  };
}

/** Karpenter's words for pods that would not schedule (Results.NonPendingPodSchedulingErrors, as a sentence). */
export function notAllPodsWouldSchedule(unscheduled: SimulationResults["unscheduled"]): string {
  const shown = unscheduled.slice(0, 5).map((u) => `${u.pod} => ${u.reason}`);
  const more = unscheduled.length > 5 ? ` and ${unscheduled.length - 5} other(s)` : "";
  return `Not all pods would schedule, ${shown.join(" ")}${more}`;
}
