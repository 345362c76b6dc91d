import { ORDINARY_DISRUPTION, type PodGroup } from "../workload/workload-model";

// What disrupting a pod costs, as Karpenter weighs it: more for a pod with a deletion cost or a priority, never
// below -10 nor above 10; a node costs 1 plus its pods' positive costs. Consolidation tries the nodes that save the
// most per unit of that cost first.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/utils/disruption/disruption.go (EvictionCost)
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/types.go (NewCandidate, IsEmpty, SavingsRatio)

/** Every node's own cost, pods aside (PerNodeBaseDisruptionCost). */
export const NODE_BASE_COST = 1;

/** One pod's eviction cost. */
export function evictionCost(group: PodGroup): number {
  const { deletionCost, priority } = group.disruption ?? ORDINARY_DISRUPTION;
  const cost = 1 + deletionCost / 2 ** 27 + priority / 2 ** 25;
  return Math.min(10, Math.max(-10, cost));
}

/** What rescheduling a node's pods costs: the base, plus each pod's cost where positive (RescheduleDisruptionCost). */
export function rescheduleCost(pods: readonly { readonly group: PodGroup; readonly count: number }[]): number {
  let cost = NODE_BASE_COST;
  for (const { group, count } of pods) cost += Math.max(0, evictionCost(group)) * count;
  return cost;
}
