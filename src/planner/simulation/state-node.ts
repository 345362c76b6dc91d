import { LABEL } from "../../shared/vocabulary/well-known-labels";
import type { Taint } from "../model";
import type { DaemonSetShape } from "../workload/workload-model";
import type { Resources } from "./resources";
import type { Placement, PodCount } from "./topology";

// A node the cluster already has, as Karpenter's cluster state holds it: a node running before the plan starts
// (its pods bound to it), or one an earlier provisioning loop of the plan launched. The scheduler tries these
// first, counts their pods in topology, and counts them against their NodePool's limits.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/state/statenode.go (StateNode)

export interface StateNode {
  /** The node's name, which is its kubernetes.io/hostname. */
  readonly name: string;
  /**
   * Every label of the node, well-known ones included: its zone, capacity type and NodePool (absent on a node
   * Karpenter did not launch), its instance type's labels, and its pool's.
   */
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  readonly allocatable: Resources;
  /** What it counts against its NodePool's limits: Karpenter's capacity of its instance type (vCPUs, memory after the VM overhead, pods). */
  readonly capacity: Readonly<Record<string, number>>;
  /** The pods bound to it, by group; their labels count in topology. */
  readonly pods: readonly PodCount[];
  /** The DaemonSet pods running on it. */
  readonly daemonSetPods: readonly DaemonSetShape[];
  /**
   * An initialized node is ready for pods; Karpenter tries those before nodes still starting (a node launched by
   * an earlier loop of the plan is not).
   */
  readonly initialized: boolean;
}

/** The NodePool that launched the node, or undefined for a node Karpenter does not own. */
export const nodePoolOf = (node: StateNode): string | undefined => node.labels[LABEL.nodePool];

/** Where topology counts the node's pods: its hostname, and its one zone and capacity type (none when unlabelled). */
export function nodePlacement(node: StateNode): Placement {
  const zone = node.labels[LABEL.zone];
  const capacityType = node.labels[LABEL.capacityType];
  return { host: node.name, zones: zone === undefined ? [] : [zone], capacityTypes: capacityType === undefined ? [] : [capacityType] };
}
