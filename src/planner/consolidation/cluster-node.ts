import type { PoolDisruption } from "../model";
import type { StateNode } from "../simulation/state-node";

// The cluster as Karpenter's disruption controller sees it: nodes (each with the pods bound to it, its price and
// what keeps it), the NodePools' disruption settings, and the PodDisruptionBudgets.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/state/statenode.go, pkg/apis/v1/nodepool.go (Disruption)

export interface ClusterNode {
  /** Its labels, taints, resources and the pods bound to it, as the scheduler reads them. */
  readonly state: StateNode;
  /** The disruption settings of the NodePool that owns it; undefined for a node no NodePool owns (a node group's). */
  readonly pool: PoolDisruption | undefined;
  /** A NodeClaim stands behind it: Karpenter's to disrupt (StateNode.Managed). */
  readonly managed: boolean;
  /** Its Ready condition is True; a node of a pool that is not ready uses up the pool's disruption budget. */
  readonly ready: boolean;
  /** Its NodeClaim's instance is terminating: no longer counted in its pool's size for budgets. */
  readonly instanceTerminating: boolean;
  readonly instanceType: string;
  readonly capacityType: string;
  readonly zone: string | undefined;
  /** USD per hour; undefined when the type or its price is not known: such a node is never priced as $0. */
  readonly hourlyUsd: number | undefined;
  /** Priced at the on-demand rate while it runs on spot (no spot prices offline). */
  readonly priceIsUpperBound: boolean;
  /** karpenter.sh/do-not-disrupt: "true" where Karpenter reads it: the NodeClaim's until the node registers, the node's after. */
  readonly doNotDisrupt: boolean;
  /** Deleted or marked for deletion: not a candidate, its pods to be rescheduled anyway, and disrupting its pool's budget. */
  readonly deleting: boolean;
  /**
   * Its NodeClaim's Consolidatable condition: consolidateAfter has passed since its last pod event (or since it was
   * initialized). A plan has no clock and takes every window as passed (undefined); the replay sets it.
   */
  readonly consolidatable?: boolean;
}
