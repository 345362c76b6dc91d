import { LABEL } from "../../shared/vocabulary/well-known-labels";
import type { PodGroup } from "../workload/workload-model";
import type { PoolOfferings } from "./pool-offerings";
import type { StateNode } from "./state-node";
import { untoleratedTaint } from "./taints";
import type { DomainUniverse } from "./topology";

// The zones and capacity types a topology spread counts: those the NodePools can launch in, and those of the
// nodes that exist (a zone where only a running node is still counts its pods). With nodeTaintsPolicy Honor,
// only pools and nodes whose taints the spreading pod tolerates count.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/topology.go (NewTopology, buildDomainGroups)

const union = (lists: readonly (readonly string[])[]): string[] => [...new Set(lists.flat())];

export function domainUniverse(pools: readonly PoolOfferings[], nodes: readonly StateNode[] = []): DomainUniverse {
  const labelled = (key: string, of: readonly StateNode[]) => of.flatMap((n) => (n.labels[key] === undefined ? [] : [n.labels[key]]));
  const allZones = union([...pools.map((p) => p.zones), labelled(LABEL.zone, nodes)]);
  const tolerated = (owner: PodGroup) => ({
    pools: pools.filter((p) => untoleratedTaint(owner.pod.tolerations, p.pool.taints) === undefined),
    nodes: nodes.filter((n) => untoleratedTaint(owner.pod.tolerations, n.taints) === undefined),
  });
  return {
    zones: (owner) => {
      if (owner === undefined) return allZones;
      const { pools: honored, nodes: reachable } = tolerated(owner);
      return union([...honored.map((p) => p.zones), labelled(LABEL.zone, reachable)]);
    },
    capacityTypes: union([...pools.map((p) => p.capacityTypes), labelled(LABEL.capacityType, nodes)]),
  };
}
