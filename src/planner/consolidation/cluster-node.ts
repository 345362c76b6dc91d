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
  readonly instanceType: string;
  readonly capacityType: string;
  readonly zone: string | undefined;
  /** USD per hour; undefined when the type or its price is not known: such a node is never priced as $0. */
  readonly hourlyUsd: number | undefined;
  /** Priced at the on-demand rate while it runs on spot (no spot prices offline). */
  readonly priceIsUpperBound: boolean;
  /** karpenter.sh/do-not-disrupt: "true" on the node or its NodeClaim. */
  readonly doNotDisrupt: boolean;
  /** Being deleted already: not a candidate, and its pods are to be rescheduled anyway. */
  readonly deleting: boolean;
}
