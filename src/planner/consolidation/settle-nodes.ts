import type { SimulationContext } from "../simulation/simulation-context";
import type { PodDisruptionBudget } from "../workload/workload-model";
import type { ClusterNode } from "./cluster-node";
import { disruptionContext } from "./disruption-context";
import { type ConsolidationResult, consolidate } from "./disruption-controller";
import type { PendingPods } from "./simulate-scheduling";

// Where a cluster's nodes settle: the disruption controller run on them, in the cluster's simulation context (the
// same one its launch, or its pending pods' provisioning, ran in), until nothing moves.

export interface SettleInput {
  readonly nodes: readonly ClusterNode[];
  /** Pods bound to no node that Karpenter provisions for; none when not given. */
  readonly pending?: readonly PendingPods[];
  readonly pdbs: readonly PodDisruptionBudget[];
  /** When budgets' schedules are evaluated. */
  readonly at: Date;
  /** Karpenter's SpotToSpotConsolidation feature gate. */
  readonly spotToSpot: boolean;
}

/** Where the nodes settle once the disruption controller has nothing left to do. */
export function settleNodes(simulation: SimulationContext, input: SettleInput): ConsolidationResult {
  const ctx = disruptionContext(simulation, { nodes: input.nodes, pending: input.pending, spotToSpot: input.spotToSpot });
  return consolidate(ctx, { nodes: input.nodes, pdbs: input.pdbs, at: input.at });
}
