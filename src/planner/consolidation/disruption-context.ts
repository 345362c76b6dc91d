import type { PoolDisruption } from "../model";
import { domainUniverse } from "../simulation/domain-universe";
import type { NodeClaimIds } from "../simulation/node-claim-ids";
import { NodeClaimTemplate } from "../simulation/node-claim-template";
import { type PodData, podDataOf } from "../simulation/pod-data";
import type { FitCache } from "../simulation/pod-fit";
import type { PoolOfferings } from "../simulation/pool-offerings";
import { Topology } from "../simulation/topology";
import type { DaemonSetShape, PodGroup } from "../workload/workload-model";
import type { ClusterNode } from "./cluster-node";
import type { DisruptionContext, PendingPods } from "./simulate-scheduling";

export interface DisruptionContextInput {
  /** Each NodePool's offerings (with their DaemonSet overhead), in Karpenter's order: weight, then name. */
  readonly pools: readonly PoolOfferings[];
  readonly disruption: ReadonlyMap<string, PoolDisruption>;
  /** Every DaemonSet of the cluster. */
  readonly daemonSets: readonly DaemonSetShape[];
  readonly fits: FitCache;
  /** The nodes it starts from: their pods are those the scheduler will move. */
  readonly nodes: readonly ClusterNode[];
  readonly region: string;
  readonly zonesKnown: boolean;
  readonly spotKnown: boolean;
  readonly spotToSpot: boolean;
  readonly typeKnown: (name: string) => boolean;
  /** The planning's NodeClaim numbers, on from those its launch opened. */
  readonly nodeClaimIds: NodeClaimIds;
  /** The cluster's pending pods Karpenter provisions for. */
  readonly pending?: readonly PendingPods[];
}

/** What the disruption controller works with, built once for a cluster: its pods' scheduling data and topology. */
export function disruptionContext(input: DisruptionContextInput): DisruptionContext {
  const preferNoSchedule = input.pools.some((p) => p.pool.taints.some((t) => t.effect === "PreferNoSchedule"));
  const data = new Map<PodGroup, PodData>();
  for (const node of input.nodes) for (const { group } of node.state.pods) if (!data.has(group)) data.set(group, podDataOf(group, preferNoSchedule));
  for (const { group } of input.pending ?? []) if (!data.has(group)) data.set(group, podDataOf(group, preferNoSchedule));
  const topology = new Topology(
    [...data.values()],
    domainUniverse(
      input.pools,
      input.nodes.map((n) => n.state),
    ),
  );
  return {
    templates: input.pools.map((offerings) => new NodeClaimTemplate(offerings, input.spotKnown)),
    daemonSets: input.daemonSets,
    fits: input.fits,
    topology,
    podData: (group) => {
      const known = data.get(group);
      if (known === undefined) throw new Error(`bug: pod group ${group.id} is not on any node the disruption controller started from`);
      return known;
    },
    region: input.region,
    zonesKnown: input.zonesKnown,
    spotKnown: input.spotKnown,
    spotToSpot: input.spotToSpot,
    typeKnown: input.typeKnown,
    pools: input.disruption,
    nodeClaimIds: input.nodeClaimIds,
    pending: input.pending ?? [],
    launched: 0,
  };
}
